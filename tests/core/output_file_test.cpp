// Output files (core/output_file.hpp): opened before the work, never replacing what is not a
// regular file, atomic for regular files, errors naming the option and the path.
#include "core/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "core/error.hpp"

namespace dlcnet {
namespace {

namespace fs = std::filesystem;

class OutputFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/dlcnet-output-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  static std::string read(const std::string& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  static void write(const std::string& p, const std::string& text) { std::ofstream(p) << text; }
  // The error `make` throws, or "" when it does not.
  template <class F>
  static std::string error_of(F&& make) {
    try {
      make();
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  }
  size_t entries() const {
    return static_cast<size_t>(std::distance(fs::directory_iterator(dir_), {}));
  }
  fs::path dir_;
};

TEST_F(OutputFileTest, ReplacesARegularFileOnlyOnCommit) {
  const std::string p = path("r.json");
  write(p, "old\n");
  ::chmod(p.c_str(), 0640);
  {
    OutputFile out("--json", p);
    out.put("new\n");
    out.flush();
    EXPECT_EQ(read(p), "old\n");  // still the old one until commit
    out.commit();
  }
  EXPECT_EQ(read(p), "new\n");
  EXPECT_EQ(fs::status(p).permissions(), fs::perms(0640));  // its mode kept
  EXPECT_EQ(entries(), 1u);                                 // no temporary left
  {
    OutputFile out("--json", p);
    out.put("lost\n");
  }  // never committed: the old file stays, the temporary goes
  EXPECT_EQ(read(p), "new\n");
  EXPECT_EQ(entries(), 1u);
}

TEST_F(OutputFileTest, CreatesAMissingFile) {
  const std::string p = path("new.json");
  OutputFile out("--json", p);
  out.put("{}\n");
  out.commit();
  EXPECT_EQ(read(p), "{}\n");
}

TEST_F(OutputFileTest, WritesThroughASymlinkAndKeepsIt) {
  fs::create_directory(dir_ / "real");
  write(path("real/r.json"), "old\n");
  fs::create_symlink("real/r.json", dir_ / "link.json");
  fs::create_symlink("real/absent.json", dir_ / "dangling.json");
  for (const char* name : {"link.json", "dangling.json"}) {
    OutputFile out("--json", path(name));
    out.put(std::string(name) + "\n");
    out.commit();
    EXPECT_TRUE(fs::is_symlink(dir_ / name)) << name;
    EXPECT_EQ(read(path(name)), std::string(name) + "\n");
  }
  EXPECT_EQ(read(path("real/r.json")), "link.json\n");
  EXPECT_EQ(read(path("real/absent.json")), "dangling.json\n");
}

TEST_F(OutputFileTest, WritesIntoAFifoWithAReader) {
  const std::string p = path("fifo");
  ASSERT_EQ(::mkfifo(p.c_str(), 0600), 0);
  const int reader = ::open(p.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reader, 0);
  {
    OutputFile out("--json", p);
    out.put("through the pipe\n");
    out.commit();
  }
  char buf[64] = {};
  const ssize_t n = ::read(reader, buf, sizeof buf - 1);
  ::close(reader);
  EXPECT_EQ(std::string(buf, static_cast<size_t>(std::max<ssize_t>(n, 0))), "through the pipe\n");
  EXPECT_TRUE(fs::is_fifo(p));  // not replaced by a regular file
}

TEST_F(OutputFileTest, AFifoWithoutAReaderIsAnErrorNotAWait) {
  const std::string p = path("fifo");
  ASSERT_EQ(::mkfifo(p.c_str(), 0600), 0);
  const std::string e = error_of([&] { OutputFile out("--json", p); });
  EXPECT_NE(e.find("--json " + p + ": a FIFO with no reader"), std::string::npos) << e;
  EXPECT_TRUE(fs::is_fifo(p));
}

TEST_F(OutputFileTest, AReaderThatLeftIsAWriteErrorNotSigpipe) {
  const std::string p = path("fifo");
  ASSERT_EQ(::mkfifo(p.c_str(), 0600), 0);
  const int reader = ::open(p.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reader, 0);
  OutputFile out("--records", p, OutputFile::Mode::stream);
  ::close(reader);
  out.put("nobody reads this\n");
  const std::string e = error_of([&] { out.flush(); });
  EXPECT_NE(e.find("--records " + p + ": cannot write: Broken pipe"), std::string::npos) << e;
}

TEST_F(OutputFileTest, WritesIntoADeviceAndNeverReplacesIt) {
  {
    OutputFile out("--json", "/dev/null");
    out.put("gone\n");
    out.commit();
  }
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
  OutputFile full("--json", "/dev/full");
  full.put("{}\n");
  const std::string e = error_of([&] { full.commit(); });
  EXPECT_NE(e.find("--json /dev/full: cannot write: No space left on device"), std::string::npos)
      << e;
  EXPECT_TRUE(fs::is_character_file("/dev/full"));
}

TEST_F(OutputFileTest, AnUnwritablePathFailsWhenOpenedNamingOptionAndPath) {
  const std::string missing = path("no/such/r.json");
  std::string e = error_of([&] { OutputFile out("--json", missing); });
  EXPECT_NE(e.find("--json " + missing + ": cannot create a file in " + path("no/such")),
            std::string::npos)
      << e;
  e = error_of([&] { OutputFile out("--records", missing, OutputFile::Mode::stream); });
  EXPECT_NE(e.find("--records " + missing + ": cannot open it for writing"), std::string::npos)
      << e;
  e = error_of([&] { OutputFile out("--json", dir_.string()); });
  EXPECT_NE(e.find(": is a directory, not an output file"), std::string::npos) << e;
  EXPECT_TRUE(fs::is_directory(dir_));
  e = error_of([&] { OutputFile out("--fct", ""); });
  EXPECT_NE(e.find("--fct: an empty path"), std::string::npos) << e;
}

TEST_F(OutputFileTest, AStreamWritesTheFileItselfAsItGoes) {
  const std::string p = path("rec.csv");
  write(p, "an old, longer file\n");
  OutputFile out("--records", p, OutputFile::Mode::stream);
  EXPECT_EQ(read(p), "");  // truncated when opened
  out.put("a,b\n");
  out.flush();
  EXPECT_EQ(read(p), "a,b\n");
  EXPECT_EQ(entries(), 1u);
}

TEST_F(OutputFileTest, WriteEachWritesTheOthersAfterAFailure) {
  const std::string p = path("ok.txt");
  OutputFile ok("--json", p);
  OutputFile full("--fct", "/dev/full");
  const std::string e = error_of([&] {
    write_each({[&] { write_stream(full, [](std::ostream& f) { f << "x\n"; }); },
                [&] { write_stream(ok, [](std::ostream& f) { f << "y\n"; }); }});
  });
  EXPECT_NE(e.find("--fct /dev/full: cannot write"), std::string::npos) << e;
  EXPECT_EQ(read(p), "y\n");
}

}  // namespace
}  // namespace dlcnet
