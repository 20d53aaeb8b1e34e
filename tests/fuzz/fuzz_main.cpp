// The fuzz targets without libFuzzer (every build): runs LLVMFuzzerTestOneInput on each file of
// the folders named on the command line (the seed corpus and the crash regressions), so that
// every input that once crashed a target stays a test. Exit 0 when all ran; a crash aborts.
// As libFuzzer's -malloc_limit_mb (scripts/fuzz.sh), one allocation above kMallocLimit is a
// finding: a reader that sizes its memory by what an input claims (flow.txt's flow count)
// aborts here instead of passing because the reservation was never touched.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <new>
#include <string>
#include <vector>

namespace {
constexpr size_t kMallocLimit = size_t{256} << 20;  // as -malloc_limit_mb=256
}  // namespace

void* operator new(size_t n) {
  if (n > kMallocLimit) {
    std::fprintf(stderr, "fuzz_main: an allocation of %zu bytes (limit %zu): out of proportion\n",
                 n, kMallocLimit);
    std::abort();
  }
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, size_t) noexcept {
  std::free(p);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv) {
  size_t ran = 0;
  for (int i = 1; i < argc; ++i) {
    std::vector<std::filesystem::path> files;
    if (std::filesystem::is_directory(argv[i])) {
      for (const auto& e : std::filesystem::directory_iterator(argv[i])) {
        if (e.is_regular_file()) files.push_back(e.path());
      }
    } else {
      files.emplace_back(argv[i]);
    }
    for (const auto& f : files) {
      std::ifstream in(f, std::ios::binary);
      if (!in) {
        std::fprintf(stderr, "fuzz_main: cannot read %s\n", f.c_str());
        return 2;
      }
      const std::string bytes((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
      std::fprintf(stderr, "running %s\n", f.c_str());
      LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
      ++ran;
    }
  }
  std::printf("fuzz_main: %zu inputs ran\n", ran);
  return ran == 0 ? 1 : 0;
}
