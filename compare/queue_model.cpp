#include "compare/queue_model.hpp"

#include "core/error.hpp"
#include "core/input_file.hpp"
#include "flows/line_fields.hpp"

namespace dlcnet::compare {

QueueSeries read_model_queue(std::istream& in, const std::string& file) {
  LineFields f(in, file, 0, ',');
  if (!f.next_line() || f.line().rfind("time_s,bytes", 0) != 0) {
    throw Error(file + ":" + std::to_string(f.line_number()) +
                ": the model's queue starts with the header \"time_s,bytes\"");
  }
  QueueSeries s;
  s.file = file;
  s.format = "model";
  s.shape = QueueShape::linear;
  while (f.next_line()) {
    const double t = f.real("time_s");
    const double b = f.real("bytes");
    f.expect_end("time_s,bytes");
    if (!s.points.empty() && t < s.points.back().t_s) {
      f.fail("time_s", std::to_string(t) + " is before the previous line's " +
                           std::to_string(s.points.back().t_s));
    }
    if (b < 0) f.fail("bytes", "a negative length");
    s.points.push_back({t, b, b});
  }
  return s;
}

QueueSeries read_model_queue(const std::string& path) {
  return read_input(path, "the model's queue",
                    [&](std::istream& in) { return read_model_queue(in, path); });
}

}  // namespace dlcnet::compare
