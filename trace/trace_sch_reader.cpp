// Reader of trace_sch_record.txt: a node's exchanges with the scheduler. Written by another
// branch of the capture code, in the older column layout
//   ID src dst length Dep dTime IDdep Dep_PP  OP:= <name>  <free-form debugging fields>
// with no time stamps. Its src/dst are not reliable (a server writes its server index, not its
// rank), so the node is the one whose data file sits beside it.
#include "core/error.hpp"
#include "trace/trace_draft.hpp"
#include "trace/trace_text.hpp"

namespace dlcnet::trace {
namespace {

bool belongs_to(Op op, Role role) {
  switch (op) {
    case Op::kWorkerSendSch:
    case Op::kSchedulerToWorker:
      return role == Role::kWorker;
    case Op::kServerSendSch:
    case Op::kSchedulerToServer:
      return role == Role::kServer;
    case Op::kSchedulerComm:
      return role == Role::kScheduler;
    default:
      return false;
  }
}

constexpr const char* kSchFields[] = {"ID",  "src",   "dst",   "length",
                                      "Dep", "dTime", "IDdep", "Dep_PP"};

}  // namespace

bool read_sketch_sch_file(const std::string& path, Node& node, uint16_t scheduler_rank,
                          Diagnostics& diag) {
  try {
    LineReader in(path);
    std::string_view line;
    bool had_newline = true;
    bool seen_columns = false;
    while (in.next(line, &had_newline)) {
      const uint32_t ln = in.line_number();
      Tokenizer t(line);
      std::string_view tok;
      if (!t.next(tok)) continue;
      if (tok == "ID") {  // column line (repeated when the capture restarts its counter)
        seen_columns = true;
        continue;
      }
      if (!seen_columns) {
        diag.add(Problem::kNotATrace, path, ln,
                 "not a SketchDLC scheduler-message file: expected the column line 'ID src dst "
                 "length Dep dTime IDdep Dep_PP', found '" +
                     excerpt(line) + "'");
        return false;
      }
      auto problem = [&](Problem p, std::string msg) {
        if (!had_newline) {
          diag.add(Problem::kTruncatedLine, path, ln, "last line cut short (" + msg + "): ignored");
        } else {
          diag.add(p, path, ln, std::move(msg));
        }
      };
      int64_t v[8] = {};
      bool ok = true;
      for (int f = 0; f < 8 && ok; ++f) {
        if (f > 0 && !t.next(tok)) {
          problem(Problem::kMissingField, std::string("missing field '") + kSchFields[f] +
                                              "': a scheduler-message row starts with ID src "
                                              "dst length Dep dTime IDdep Dep_PP Operation");
          ok = false;
        } else if (!parse_int(tok, v[f])) {
          problem(Problem::kBadNumber, std::string("field '") + kSchFields[f] +
                                           "': expected an integer, found '" + excerpt(tok) + "'");
          ok = false;
        }
      }
      if (!ok) continue;
      std::string_view name;
      if (!t.next(tok)) {
        problem(Problem::kMissingField, "missing field 'Operation' (OP:= <name>)");
        continue;
      }
      if (tok == "OP:=") {
        t.next(name);
      } else if (tok.starts_with("OP:=")) {
        name = tok.substr(4);
      }
      const auto op = op_from_name(name);
      if (!op) {
        problem(Problem::kUnknownOperation,
                "field 'Operation': unknown operation '" + excerpt(name.empty() ? tok : name) +
                    "' (expected Worker_Send_Sch, Scheduler_to_Worker, Server_Send_Sch, "
                    "Scheduler_to_Server or Scheduler_Comm)");
        continue;
      }
      if (!belongs_to(*op, node.role)) {
        problem(Problem::kWrongNode,
                "operation " + std::string(op_name(*op)) + " does not belong in a " +
                    std::string(role_name(node.role)) + "'s scheduler-message file");
        continue;
      }
      if (v[3] < 0 || v[3] > UINT32_MAX) {
        problem(Problem::kBadNumber,
                "field 'length': expected a byte count, found " + std::to_string(v[3]));
        continue;
      }
      if (v[5] < -(int64_t{1} << 53) || v[5] > (int64_t{1} << 53)) {  // as the data rows'
        problem(Problem::kBadNumber,
                "field 'dTime': expected microseconds, found " + std::to_string(v[5]));
        continue;
      }
      Record rec;
      rec.length = static_cast<uint32_t>(v[3]);
      rec.dtime_ns = v[5] * 1000;
      rec.op = *op;
      rec.line = ln;
      bool sends = op_sends(*op);
      if (*op == Op::kSchedulerComm) sends = v[1] == scheduler_rank;
      rec.set_flag(Record::kSendFlag, sends);
      const int64_t other = *op == Op::kSchedulerComm ? (sends ? v[2] : v[1]) : scheduler_rank;
      rec.peer = static_cast<uint16_t>(other >= 0 && other <= 65535 ? other : 0);
      node.control.push_back(rec);
    }
    node.sch_file = path;
    return true;
  } catch (const Error& e) {
    diag.add(Problem::kIo, path, 0, e.what());
    return false;
  }
}

}  // namespace dlcnet::trace
