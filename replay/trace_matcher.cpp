#include "replay/trace_matcher.hpp"

#include <map>
#include <utility>
#include <vector>

#include "replay/trace_draft.hpp"

namespace dlcnet::trace {
namespace {

// Pass 1 of data matching: Record::message holds the record's channel id on entry (see
// NodeDraft) and the partner's record index on exit. Workers' records are walked in file
// order: their partners in the server's file are then near each other too (both files are in
// time order), which keeps the look-ups in cache.
void pair_data_records(Job& job, std::span<const ChannelTable> channels) {
  for (Node& server : job.nodes) {
    if (server.present && server.role == Role::kServer) {
      for (Record& r : server.records) r.message = kNone;
    }
  }
  struct Link {
    uint32_t channel = kNone;  // the server's channel with this worker and key
    int offset = 2;            // its numbering offset
  };
  for (Node& worker : job.nodes) {
    if (!worker.present || worker.role != Role::kWorker) continue;
    const ChannelTable& wch = channels[worker.rank];
    std::vector<Link> links(wch.size());
    for (uint32_t c = 0; c < wch.size(); ++c) {
      const Node& server = job.nodes[wch[c].peer];
      if (!server.present) continue;
      links[c].channel = channels[server.rank].find(worker.rank, wch[c].key);
      if (links[c].channel != kNone)
        links[c].offset = channels[server.rank][links[c].channel].offset;
    }
    for (uint32_t w = 0; w < worker.records.size(); ++w) {
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
    }
  }
  // Nodes whose records were not walked above still hold channel ids.
  for (Node& node : job.nodes) {
    if (node.present && node.role != Role::kWorker && node.role != Role::kServer) {
      for (Record& r : node.records) r.message = kNone;
    }
  }
}

// Set-up commands: the k-th sent from A to B pairs with the k-th B received from A.
void pair_setup_records(Job& job) {
  std::map<std::pair<uint16_t, uint16_t>, std::vector<uint32_t>> sent;
  std::map<std::pair<uint16_t, uint16_t>, std::vector<uint32_t>> received;
  for (Node& node : job.nodes) {
    if (!node.present) continue;
    for (uint32_t i = 0; i < node.records.size(); ++i) {
      const Record& r = node.records[i];
      if (r.is_data()) continue;
      if (r.is_send()) {
        sent[{node.rank, r.peer}].push_back(i);
      } else {
        received[{r.peer, node.rank}].push_back(i);
      }
    }
  }
  for (auto& [link, sends] : sent) {
    auto it = received.find(link);
    if (it == received.end()) continue;
    Node& a = job.nodes[link.first];
    Node& b = job.nodes[link.second];
    for (size_t k = 0; k < sends.size() && k < it->second.size(); ++k) {
      a.records[sends[k]].message = it->second[k];
      b.records[it->second[k]].message = sends[k];
    }
  }
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
    diag.count(Problem::kPeerFileAbsent);
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
  pair_data_records(job, channels);
  pair_setup_records(job);

  // Count first so the messages vector is sized exactly.
  size_t count = 0;
  for (const Node& node : job.nodes) {
    for (const Record& r : node.records) {
      if (r.is_send() || r.message == kNone) ++count;
    }
  }
  job.messages.clear();
  job.messages.reserve(count);

  // Sends first: a paired receive learns its message index from its sender.
  for (Node& node : job.nodes) {
    for (uint32_t i = 0; i < node.records.size(); ++i) {
      Record& r = node.records[i];
      if (!r.is_send()) continue;
      const auto m = static_cast<uint32_t>(job.messages.size());
      Message msg{i, r.message, node.rank, r.peer};
      if (r.message != kNone) {
        job.nodes[r.peer].records[r.message].message = m;
      } else {
        report_unmatched(job, node, r, diag);
      }
      r.message = m;
      job.messages.push_back(msg);
    }
  }
  // Receives still unpaired have no sender record.
  for (Node& node : job.nodes) {
    for (uint32_t i = 0; i < node.records.size(); ++i) {
      Record& r = node.records[i];
      if (r.is_send() || r.message != kNone) continue;
      report_unmatched(job, node, r, diag);
      r.message = static_cast<uint32_t>(job.messages.size());
      job.messages.push_back(Message{kNone, i, r.peer, node.rank});
    }
  }
}

}  // namespace dlcnet::trace
