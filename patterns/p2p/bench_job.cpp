#include "patterns/p2p/bench_job.hpp"

#include <exception>
#include <functional>
#include <future>
#include <iostream>
#include <memory>
#include <optional>
#include <thread>

#include "core/error.hpp"
#include "core/log_line.hpp"
#include "core/output_file.hpp"
#include "core/record.hpp"
#include "core/run_context.hpp"
#include "core/stall_error.hpp"
#include "core/stop_budget.hpp"
#include "core/tcp_stack.hpp"
#include "core/units.hpp"
#include "launch/job.hpp"
#include "launch/rank_cpu.hpp"
#include "launch/transport_select.hpp"
#include "patterns/p2p/bench_header.hpp"
#include "patterns/p2p/bench_report.hpp"
#include "verbs/port_counters.hpp"

namespace dlcnet::bench {
namespace {

constexpr int kServer = 0;
constexpr int kClient = 1;

// The server adopts the client's sizes and counts; the test and operation must agree.
BenchSpec agree_on_spec(Bootstrap& boot, const BenchSpec& mine) {
  std::vector<Bytes> all = boot.allgather(mine.encode());
  BenchSpec client = BenchSpec::decode(all[kClient], "the client");
  BenchSpec server = BenchSpec::decode(all[kServer], "the server");
  if (client.kind != server.kind || client.op != server.op) {
    throw Error(std::string("the client runs '") + to_string(client.kind) + " --op " +
                to_string(client.op) + "' but the server runs '" + to_string(server.kind) +
                " --op " + to_string(server.op) + "': start both with the same test");
  }
  client.timeout_s = mine.timeout_s;  // each side keeps its own patience
  return client;
}

void check_sizes(const BenchSpec& spec, const Transport& t, const std::string& device) {
  for (uint64_t size : spec.sizes) {
    if (size > t.max_message_size()) {
      throw Error("-s " + format_size(size) + " exceeds " + device + "'s maximum message size of " +
                  format_size(t.max_message_size()) + ": give sizes up to " +
                  format_size(t.max_message_size()) + " (-s, or -e for a sweep)");
    }
  }
}

// "rxe0" for verbs; for UCX the lanes it chose, e.g. "tcp/lo" or "rc_verbs/rxe0:1".
std::string device_name(const nlohmann::json& d) {
  if (d.contains("device") && d["device"].is_string()) return d["device"].get<std::string>();
  std::string lanes;
  if (d.contains("endpoints") && d["endpoints"].is_array() && !d["endpoints"].empty()) {
    for (const auto& lane : d["endpoints"][0].value("lanes", nlohmann::json::array())) {
      std::string one = lane.value("transport", "?") + "/" + lane.value("device", "?");
      if (lanes.find(one) == std::string::npos) lanes += (lanes.empty() ? "" : ",") + one;
    }
  }
  return lanes.empty() ? d.value("transport", std::string("the transport")) : lanes;
}

// The client's files, opened before the test starts (core/output_file.hpp): an unwritable
// path stops it before anything runs.
struct Outputs {
  std::unique_ptr<OutputFile> json;
  std::unique_ptr<RecordWriter> records;
};

Outputs open_outputs(const Options& o) {
  Outputs out;
  out.json = open_output("--json", o.json_path);
  if (!o.records_path.empty()) out.records = std::make_unique<RecordWriter>(o.records_path);
  return out;
}

// -W reads the counters of the verbs device's port; UCX picks its devices per lane.
std::optional<verbs::CounterSnapshot> read_counters(const Options& o, const TransportChoice& c) {
  if (!o.counters) return std::nullopt;
  if (c.chosen != "verbs") {
    throw Error("-W: reads the counters of the verbs device's port, but this run uses UCX (" +
                c.reason + "), which picks its devices per lane: run with --transport verbs");
  }
  const nlohmann::json d = c.transport->describe();
  return verbs::read_port_counters(d.value("device", std::string()), d.value("ib_port", 0));
}

// One end of the test; `out` is the client's (null on the server). The client prints and
// writes the reports: every size's row as it is measured, and the JSON of the sizes measured
// even when a later one fails ("complete": false, "error": the job's first cause).
void run_role(const Options& o, int role, uint16_t port, int argc, const char* const* argv,
              bool quiet, Outputs* out, const std::function<void(uint16_t)>& on_listening = {}) {
  TransportChoice choice = open_transport(o.transport_kind, o.transport);
  const bool initiator = role == kClient;
  (void)read_counters(o, choice);  // refuses -W under UCX before the peer waits for us
  if (!quiet) {
    log_line("dlc-bench: transport " + choice.chosen + " (" + choice.reason + ")");
  }
  // Two ranks of one process (--loopback) take two cores; one rank per host takes the first.
  const CpuBinding cpu =
      bind_rank_thread(o.cpu, choice, o.loopback ? static_cast<unsigned>(role) : 0, 0,
                       initiator ? "dlc-bench (client)" : "dlc-bench (server)", quiet);
  // A job of two ranks on the job layer: the server is rank 0 and coordinates.
  JobConfig jc;
  jc.rank = role;
  jc.world_size = 2;
  jc.coordinator_host = o.loopback ? "127.0.0.1" : o.server;
  // The server (no host given) waits for a client from anywhere, as perftest's does; with
  // --loopback both ends are on this host.
  if (o.server.empty()) jc.bind_host = o.loopback ? "127.0.0.1" : "0.0.0.0";
  jc.port = port;
  jc.timeout = std::chrono::seconds(o.spec.timeout_s);
  // Both ends run every size (the responder of a one-sided test kept waiting by the initiator's
  // heartbeats), so a barrier longer than the wait limit (and -D) means the peer stopped (a
  // frozen peer is found only by such a wait). The wait limit, as every other wait's
  // (core/stop_budget.hpp).
  const int size_s = static_cast<int>(o.spec.duration_s);
  jc.op_timeout = stop_budget(o.spec.timeout_s).wait + std::chrono::seconds(size_s);
  if (o.wire_version) jc.wire_version = o.wire_version;
  Job job(jc);
  if (on_listening) on_listening(job.port());
  if (role == kServer && !quiet) {
    log_line("dlc-bench: waiting for a client on port " + std::to_string(job.port()));
  }
  job.join();
  Transport& t = *choice.transport;
  BenchResult done;           // the client's sizes measured so far
  nlohmann::json peer_stack;  // the other end's TCP stack (core/tcp_stack.hpp), once exchanged
  bool agreed = false;
  const BwUnit unit = o.report_gbits ? BwUnit::gb_per_s : BwUnit::mb_per_s;
  std::optional<verbs::CounterSnapshot> counters_before;
  auto report = [&](const std::string& error) {
    nlohmann::json doc = bench_json(done, unit, error);
    if (counters_before) {
      doc["counters"] = verbs::counter_deltas_json(*counters_before, *read_counters(o, choice));
    }
    nlohmann::json ctx = make_run_context("dlc-bench", argc, argv);
    add_transport_versions(ctx);
    ctx["transport"] = t.describe();
    ctx["transport_selection"] = choice.to_json();
    ctx["cpu"] = cpu.to_json();
    ctx["peer_tcp_stack"] = peer_stack;  // the server's (tcp_stack: this client's)
    ctx["role"] = "client";
    ctx["peer"] = o.loopback ? std::string("loopback") : o.server;
    if (out->records) ctx["records_file"] = out->records->path();
    doc["context"] = ctx;
    doc["phases_s"] = job.phases_json();
    doc["setup"] = job.setup_json();
    write_json_file(*out->json, doc);
  };
  bool reported = false;
  try {
    done.spec = agree_on_spec(job.bootstrap(), o.spec);
    agreed = true;
    // Each end's TCP stack, for the client's JSON: the server's as the client sees nothing of it.
    peer_stack = tcp_stack_of(job.bootstrap().allgather(
        tcp_stack_bytes(read_tcp_stack()))[initiator ? kServer : kClient]);
    check_sizes(done.spec, t, device_name(t.describe()));
    PeerSession session(t, job.bootstrap(), initiator ? kServer : kClient, initiator, done.spec);
    const int peers[] = {session.peer()};
    job.connect(t, peers);
    std::unique_ptr<Pattern> pattern = make_pattern(done.spec.kind, done.spec.op);
    BenchTablePrinter table(std::cout, done.spec.kind, unit);
    if (initiator) {
      const nlohmann::json d = t.describe();
      std::cout << "# dlc-bench " << to_string(done.spec.kind) << " --op "
                << to_string(done.spec.op) << "  transport: " << choice.chosen
                << "  device: " << device_name(d) << '\n';
      if (choice.chosen == "verbs") std::cout << verbs_header(d);
      table.header();
    }
    job.release(Release::barrier, Idle::spin);  // failures from here on are "during run"
    if (initiator) counters_before = read_counters(o, choice);
    run_bench(
        session, *pattern, initiator ? out->records.get() : nullptr,
        [&](const SizeResult& r) {
          table.row(r);
          if (o.dump_samples) table.samples(r);
          done.sizes.push_back(r);
        },
        o.dump_samples);
    if (counters_before) {
      std::cout << verbs::counter_deltas_text(
                       verbs::counter_deltas_json(*counters_before, *read_counters(o, choice)))
                << std::flush;
    }
    if (initiator && out->json) {
      reported = true;
      report({});
    }
    // The server stays until the client's reports are written: a failure there is the job's.
    job.bootstrap().barrier();
  } catch (const std::exception& e) {
    const std::string cause = job.settle_failure(e.what(), stalled_on(e));
    if (initiator && agreed && out->json && !done.sizes.empty() && !reported) {
      try {
        report(cause);
        log_line("dlc-bench: " + out->json->name() + ": the " + std::to_string(done.sizes.size()) +
                 " size(s) measured before the failure, marked incomplete");
      } catch (const std::exception& w) {
        log_line(std::string("dlc-bench: error: ") + w.what());
      }
    }
    throw Error(cause);
  }
  if (!initiator && !quiet) log_line("dlc-bench: client finished");
}

}  // namespace

int run(const Options& o, int argc, const char* const* argv) {
  try {
    // The client's files first: nothing runs when one cannot be written.
    Outputs out = o.loopback || !o.server.empty() ? open_outputs(o) : Outputs{};
    if (!o.loopback) {
      run_role(o, o.server.empty() ? kServer : kClient, o.port, argc, argv, false, &out);
      return 0;
    }
    // Both ends in this process, each with its own transport, over TCP on 127.0.0.1 (a free
    // port) so that an end that fails closes its socket and the other end stops at once.
    std::exception_ptr server_error;
    std::promise<uint16_t> listening;
    std::thread server([&] {
      try {
        run_role(o, kServer, 0, argc, argv, true, nullptr,
                 [&](uint16_t p) { listening.set_value(p); });
      } catch (...) {
        server_error = std::current_exception();
        try {
          listening.set_value(0);
        } catch (const std::future_error&) {
          // already published
        }
      }
    });
    std::exception_ptr client_error;
    try {
      const uint16_t port = listening.get_future().get();
      if (port != 0) run_role(o, kClient, port, argc, argv, false, &out);
    } catch (...) {
      client_error = std::current_exception();
    }
    server.join();
    // The end that failed first usually explains the other's failure: show both.
    if (server_error && client_error) {
      try {
        std::rethrow_exception(server_error);
      } catch (const std::exception& e) {
        log_line(std::string("dlc-bench: error (server side): ") + e.what());
      }
    }
    if (client_error) std::rethrow_exception(client_error);
    if (server_error) std::rethrow_exception(server_error);
    return 0;
  } catch (const std::exception& e) {
    log_line(std::string("dlc-bench: error: ") + e.what());
    return 1;
  }
}

}  // namespace dlcnet::bench
