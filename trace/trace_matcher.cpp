#include "trace/trace_matcher.hpp"

#include <map>
#include <utility>
#include <vector>

#include "trace/trace_draft.hpp"
#include "trace/trace_pages.hpp"

namespace dlcnet::trace {
namespace {

// Data messages: Record::message holds the record's channel id on entry at workers (kNone at
// servers, see resolve_dependencies) and the partner's record index on exit, or kNone.
// Workers' records are walked in file order: their partners in the server's file are then
// near each other too (both files are in time order), which keeps the look-ups in cache.
// Returns the number of pairs.
uint64_t pair_data_records(Job& job, std::span<const ChannelTable> channels) {
  struct Link {
    uint32_t channel = kNone;  // the server's channel with this worker and key
    int offset = 2;            // its numbering offset
  };
  uint64_t pairs = 0;
  for (Node& worker : job.nodes) {
    if (!worker.present || worker.role != Role::kWorker) continue;
    const ChannelTable& wch = channels[worker.rank];
    std::vector<Link> links(wch.size());
    for (uint32_t c = 0; c < wch.size(); ++c) {
      const Node& server = job.nodes[wch[c].peer];
      if (!server.present) continue;
      links[c].channel = channels[server.rank].find(worker.rank, wch[c].key);
      if (links[c].channel != kNone) {
        links[c].offset = channels[server.rank][links[c].channel].offset;
      }
    }
    // The look-ups land all over the server's records (a cache miss each): start them some
    // records ahead, the index entry first, then the record it names.
    const auto n = static_cast<uint32_t>(worker.records.size());
    const auto first_guess = [&](uint32_t w) -> const uint32_t* {
      const Record& r = worker.records[w];
      const uint32_t c = r.message;
      if (c == kNone || links[c].channel == kNone) return nullptr;
      return channels[r.peer].first_guess(links[c].channel,
                                          opnum_of(r.iteration, r.phase(), links[c].offset));
    };
    constexpr uint32_t kAhead = 8;
    for (uint32_t w = 0; w < n; ++w) {
      if (w + 2 * kAhead < n) {
        if (const uint32_t* g = first_guess(w + 2 * kAhead)) __builtin_prefetch(g);
      }
      if (w + kAhead < n) {
        if (const uint32_t* g = first_guess(w + kAhead)) {
          const Node& sv = job.nodes[worker.records[w + kAhead].peer];
          if (*g < sv.records.size()) __builtin_prefetch(&sv.records[*g], 1);
        }
      }
      Record& wr = worker.records[w];
      const uint32_t c = wr.message;
      wr.message = kNone;
      if (c == kNone || wr.is_duplicate() || links[c].channel == kNone) continue;
      Node& server = job.nodes[wr.peer];
      const int32_t opnum = opnum_of(wr.iteration, wr.phase(), links[c].offset);
      const uint32_t s = channels[server.rank].lookup(links[c].channel, opnum, server.records);
      if (s == kNone) continue;
      Record& sr = server.records[s];
      if (sr.op != op_counterpart(wr.op) || sr.message != kNone || sr.is_duplicate()) continue;
      wr.message = s;
      sr.message = w;
      ++pairs;
    }
  }
  return pairs;
}

// Set-up commands: the k-th sent from A to B pairs with the k-th B received from A.
uint64_t pair_setup_records(Job& job, std::span<const ChannelTable> channels) {
  std::map<std::pair<uint16_t, uint16_t>, std::vector<uint32_t>> sent;
  std::map<std::pair<uint16_t, uint16_t>, std::vector<uint32_t>> received;
  for (Node& node : job.nodes) {
    if (!node.present) continue;
    for (uint32_t i : channels[node.rank].setup()) {
      const Record& r = node.records[i];
      if (r.is_send()) {
        sent[{node.rank, r.peer}].push_back(i);
      } else {
        received[{r.peer, node.rank}].push_back(i);
      }
    }
  }
  uint64_t pairs = 0;
  for (auto& [link, sends] : sent) {
    auto it = received.find(link);
    if (it == received.end()) continue;
    Node& a = job.nodes[link.first];
    Node& b = job.nodes[link.second];
    for (size_t k = 0; k < sends.size() && k < it->second.size(); ++k) {
      a.records[sends[k]].message = it->second[k];
      b.records[it->second[k]].message = sends[k];
      ++pairs;
    }
  }
  return pairs;
}

std::string describe(const Job& job, const Record& r) {
  std::string s(op_name(r.op));
  if (r.is_data()) {
    s += " " + op_id_text(r.key, r.opnum, r.peer, job.num_workers) + " (iteration " +
         std::to_string(r.iteration) + ")";
  }
  return s;
}

void report_unmatched(const Job& job, const Node& node, const Record& r, Diagnostics& diag) {
  const Node& peer = job.nodes[r.peer];
  if (!peer.present) {
    diag.count_at(Problem::kPeerFileAbsent, node.file, r.line);
    return;
  }
  const Problem p = r.is_send() ? Problem::kUnmatchedSend : Problem::kUnmatchedReceive;
  if (!diag.wants(p)) {
    diag.count(p);
    return;
  }
  diag.add(p, node.file, r.line,
           describe(job, r) + " has no " + std::string(op_name(op_counterpart(r.op))) + " in " +
               peer.name() + "'s file " + peer.file +
               (r.is_send() ? " (receiver's file cut short?)" : " (sender's file cut short?)"));
}

}  // namespace

void match_messages(Job& job, std::span<const ChannelTable> channels, Diagnostics& diag) {
  uint64_t pairs = pair_data_records(job, channels);
  pairs += pair_setup_records(job, channels);
  job.messages.clear();
  job.messages.reserve(job.record_count() - pairs);
  prefault(job.messages.data(), job.messages.capacity() * sizeof(Message));

  // One pass a node. A send makes its message and tells its receiver (whose Record::message
  // then holds the message, not kNone); a receive still at kNone had no sender; a receive
  // holding anything else is or will be told by its sender.
  for (Node& node : job.nodes) {
    const auto n = static_cast<uint32_t>(node.records.size());
    for (uint32_t i = 0; i < n; ++i) {
      if (i + 8 < n) {  // the receiver's record, told below: a cache miss otherwise
        const Record& a = node.records[i + 8];
        if (a.is_send() && a.message != kNone) {
          __builtin_prefetch(&job.nodes[a.peer].records[a.message], 1);
        }
      }
      Record& r = node.records[i];
      const auto m = static_cast<uint32_t>(job.messages.size());
      if (r.is_send()) {
        if (r.message != kNone) {
          job.nodes[r.peer].records[r.message].message = m;
        } else {
          report_unmatched(job, node, r, diag);
        }
        job.messages.push_back(Message{i, r.message, node.rank, r.peer});
        r.message = m;
      } else if (r.message == kNone) {
        report_unmatched(job, node, r, diag);
        job.messages.push_back(Message{kNone, i, r.peer, node.rank});
        r.message = m;
      }
    }
  }
}

}  // namespace dlcnet::trace
