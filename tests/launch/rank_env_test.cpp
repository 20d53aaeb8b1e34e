#include "launch/rank_env.hpp"

#include <gtest/gtest.h>

#include <map>

#include "core/error.hpp"

namespace dlcnet {
namespace {

EnvLookup env_of(std::map<std::string, std::string> vars) {
  return [vars](const char* name) -> std::optional<std::string> {
    auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

TEST(Hostlist, ExpandsRangesListsAndPadding) {
  EXPECT_EQ(expand_hostlist("node[01-03],gpu7"),
            (std::vector<std::string>{"node01", "node02", "node03", "gpu7"}));
  EXPECT_EQ(expand_hostlist("a[1,3-4]"), (std::vector<std::string>{"a1", "a3", "a4"}));
  EXPECT_EQ(expand_hostlist("n[8-10]"), (std::vector<std::string>{"n8", "n9", "n10"}));
  EXPECT_EQ(expand_hostlist("rack[1-2]-n[1-2]"),
            (std::vector<std::string>{"rack1-n1", "rack1-n2", "rack2-n1", "rack2-n2"}));
  EXPECT_EQ(expand_hostlist("single"), (std::vector<std::string>{"single"}));
}

TEST(Hostlist, RejectsBadInput) {
  EXPECT_THROW(expand_hostlist("node[01-03"), Error);
  EXPECT_THROW(expand_hostlist("node[3-1]"), Error);
  EXPECT_THROW(expand_hostlist("node[a-b]"), Error);
}

TEST(HostPort, Parses) {
  EXPECT_EQ(parse_host_port("10.0.0.1:4000", "x"),
            (std::pair<std::string, uint16_t>{"10.0.0.1", 4000}));
  EXPECT_EQ(parse_host_port("[fd00::2]:5", "x").first, "fd00::2");
  EXPECT_THROW(parse_host_port("host", "--coordinator"), Error);
  EXPECT_THROW(parse_host_port("host:99999", "--coordinator"), Error);
}

TEST(RankEnv, NoneWithoutOptionsOrLauncher) {
  EXPECT_FALSE(resolve_rank_env({}, env_of({})).has_value());
}

TEST(RankEnv, ExplicitOptions) {
  ExplicitRank g;
  g.rank = 2;
  g.world_size = 3;
  g.coordinator = "h0:1234";
  g.job_token = 77;
  const auto e = resolve_rank_env(g, env_of({}));
  ASSERT_TRUE(e);
  EXPECT_EQ(e->rank, 2);
  EXPECT_EQ(e->world_size, 3);
  EXPECT_EQ(e->coordinator_host, "h0");
  EXPECT_EQ(e->port, 1234);
  EXPECT_EQ(e->job_token, 77u);
  EXPECT_EQ(e->source, "options");
}

TEST(RankEnv, ExplicitNeedsWorldAndCoordinator) {
  ExplicitRank g;
  g.rank = 1;
  EXPECT_THROW(resolve_rank_env(g, env_of({})), Error);
  g.world_size = 2;
  EXPECT_THROW(resolve_rank_env(g, env_of({})), Error);
  g.world_size = 1;
  EXPECT_THROW(resolve_rank_env(g, env_of({})), Error);  // rank 1 of 1
}

TEST(RankEnv, OpenMpiOnOneHost) {
  const auto env = env_of({{"OMPI_COMM_WORLD_RANK", "1"},
                           {"OMPI_COMM_WORLD_SIZE", "3"},
                           {"OMPI_COMM_WORLD_LOCAL_SIZE", "3"},
                           {"OMPI_MCA_ess_base_jobid", "1616314369"}});
  const auto e = resolve_rank_env({}, env);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->source, "open-mpi");
  EXPECT_EQ(e->rank, 1);
  EXPECT_EQ(e->world_size, 3);
  EXPECT_EQ(e->coordinator_host, "127.0.0.1");
  EXPECT_GE(e->port, kPortBase);
  EXPECT_LT(e->port, kPortBase + kPortSpan);
  // Every rank of the launch derives the same port and token; another launch another token.
  const auto other = resolve_rank_env({}, env_of({{"OMPI_COMM_WORLD_RANK", "0"},
                                                  {"OMPI_COMM_WORLD_SIZE", "3"},
                                                  {"OMPI_COMM_WORLD_LOCAL_SIZE", "3"},
                                                  {"OMPI_MCA_ess_base_jobid", "1616314369"}}));
  EXPECT_EQ(other->port, e->port);
  EXPECT_EQ(other->job_token, e->job_token);
  const auto next = resolve_rank_env({}, env_of({{"OMPI_COMM_WORLD_RANK", "0"},
                                                 {"OMPI_COMM_WORLD_SIZE", "3"},
                                                 {"OMPI_COMM_WORLD_LOCAL_SIZE", "3"},
                                                 {"OMPI_MCA_ess_base_jobid", "99"}}));
  EXPECT_NE(next->job_token, e->job_token);
}

// The token derived from a launcher's job id (or the coordinator's address) is guessable:
// rank 0, and only rank 0 of a job of two or more, notes it once and says how to set a secret.
TEST(RankEnvToken, DerivedTokenIsNotedOnRankZeroOnly) {
  std::map<std::string, std::string> vars = {{"OMPI_COMM_WORLD_RANK", "0"},
                                             {"OMPI_COMM_WORLD_SIZE", "3"},
                                             {"OMPI_COMM_WORLD_LOCAL_SIZE", "3"},
                                             {"OMPI_MCA_ess_base_jobid", "1616314369"}};
  const auto root = resolve_rank_env({}, env_of(vars));
  ASSERT_TRUE(root);
  EXPECT_TRUE(root->token_derived);
  const auto note = token_note(*root);
  ASSERT_TRUE(note);
  EXPECT_NE(note->find("launcher's job id (open-mpi)"), std::string::npos) << *note;
  EXPECT_NE(note->find("mpirun -x DLCNET_JOB_TOKEN="), std::string::npos) << *note;
  EXPECT_NE(note->find("srun --export=ALL,DLCNET_JOB_TOKEN="), std::string::npos) << *note;
  vars["OMPI_COMM_WORLD_RANK"] = "1";
  EXPECT_FALSE(token_note(*resolve_rank_env({}, env_of(vars))));
  // Slurm and PMI derive it from their job ids too.
  const auto slurm = resolve_rank_env({}, env_of({{"SLURM_PROCID", "0"},
                                                  {"SLURM_NTASKS", "2"},
                                                  {"SLURM_JOB_ID", "7"},
                                                  {"SLURM_STEP_NODELIST", "n[1-2]"}}));
  ASSERT_TRUE(slurm);
  ASSERT_TRUE(token_note(*slurm));
  EXPECT_NE(token_note(*slurm)->find("(slurm)"), std::string::npos);
  const auto pmi = resolve_rank_env(
      {}, env_of({{"PMI_RANK", "0"}, {"PMI_SIZE", "2"}, {"PMI_PORT", "h0:5"}, {"PMI_JOBID", "3"}}));
  ASSERT_TRUE(pmi);
  EXPECT_TRUE(token_note(*pmi));
  // Explicit options without a token derive it from the coordinator's address.
  ExplicitRank g;
  g.rank = 0;
  g.world_size = 2;
  g.coordinator = "h0:1234";
  const auto by_hand = resolve_rank_env(g, env_of({}));
  ASSERT_TRUE(token_note(*by_hand));
  EXPECT_NE(token_note(*by_hand)->find("coordinator's address"), std::string::npos);
  // One rank has no one to keep out.
  g.world_size = 1;
  EXPECT_FALSE(token_note(*resolve_rank_env(g, env_of({}))));
}

TEST(RankEnvToken, GivenTokenIsNotNoted) {
  std::map<std::string, std::string> vars = {{"OMPI_COMM_WORLD_RANK", "0"},
                                             {"OMPI_COMM_WORLD_SIZE", "3"},
                                             {"OMPI_COMM_WORLD_LOCAL_SIZE", "3"},
                                             {"OMPI_MCA_ess_base_jobid", "1616314369"},
                                             {"DLCNET_JOB_TOKEN", "s3cret"}};
  const auto from_env = resolve_rank_env({}, env_of(vars));
  ASSERT_TRUE(from_env);
  EXPECT_FALSE(from_env->token_derived);
  EXPECT_EQ(from_env->token_from, "DLCNET_JOB_TOKEN");
  EXPECT_EQ(from_env->job_token, stable_hash("s3cret"));
  EXPECT_FALSE(token_note(*from_env));
  ExplicitRank g;
  g.job_token = 5;
  const auto from_option = resolve_rank_env(g, env_of(vars));
  EXPECT_EQ(from_option->job_token, 5u);
  EXPECT_EQ(from_option->token_from, "--job-token");
  EXPECT_FALSE(token_note(*from_option));
}

TEST(RankEnvToken, EmptyTokenVariableIsAnError) {
  const auto env = env_of({{"OMPI_COMM_WORLD_RANK", "0"},
                           {"OMPI_COMM_WORLD_SIZE", "3"},
                           {"OMPI_COMM_WORLD_LOCAL_SIZE", "3"},
                           {"DLCNET_JOB_TOKEN", ""}});
  try {
    resolve_rank_env({}, env);
    FAIL() << "an empty DLCNET_JOB_TOKEN was taken";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("DLCNET_JOB_TOKEN is set but empty"), std::string::npos)
        << e.what();
  }
}

TEST(RankEnv, OpenMpiAcrossHostsUsesMpirunHost) {
  const auto e = resolve_rank_env(
      {}, env_of({{"OMPI_COMM_WORLD_RANK", "2"},
                  {"OMPI_COMM_WORLD_SIZE", "3"},
                  {"OMPI_COMM_WORLD_LOCAL_SIZE", "1"},
                  {"OMPI_MCA_orte_hnp_uri", "16.0;tcp://192.0.2.2:41177;tcp6://[fd00::2]:45727"}}));
  ASSERT_TRUE(e);
  EXPECT_EQ(e->coordinator_host, "192.0.2.2");
}

TEST(RankEnv, ExplicitCoordinatorBeatsLauncherAndBareHostTakesDerivedPort) {
  ExplicitRank g;
  g.coordinator = "headnode";
  const auto e = resolve_rank_env(g, env_of({{"OMPI_COMM_WORLD_RANK", "0"},
                                             {"OMPI_COMM_WORLD_SIZE", "2"},
                                             {"OMPI_COMM_WORLD_LOCAL_SIZE", "1"}}));
  ASSERT_TRUE(e);
  EXPECT_EQ(e->coordinator_host, "headnode");
  EXPECT_GE(e->port, kPortBase);
  const auto d = resolve_rank_env(
      {}, env_of({{"PMI_RANK", "0"}, {"PMI_SIZE", "2"}, {"DLCNET_COORDINATOR", "10.1.1.1:7000"}}));
  EXPECT_EQ(d->coordinator_host, "10.1.1.1");
  EXPECT_EQ(d->port, 7000);
  EXPECT_EQ(d->source, "pmi");
}

TEST(RankEnv, SlurmTakesFirstHostOfTheStep) {
  const auto e = resolve_rank_env({}, env_of({{"SLURM_PROCID", "4"},
                                              {"SLURM_NTASKS", "6"},
                                              {"SLURM_JOB_ID", "123"},
                                              {"SLURM_STEP_ID", "0"},
                                              {"SLURM_STEP_NODELIST", "node[07-09],gpu1"}}));
  ASSERT_TRUE(e);
  EXPECT_EQ(e->source, "slurm");
  EXPECT_EQ(e->rank, 4);
  EXPECT_EQ(e->world_size, 6);
  EXPECT_EQ(e->coordinator_host, "node07");
}

TEST(RankEnv, LauncherWithoutCoordinatorIsNamed) {
  try {
    resolve_rank_env({}, env_of({{"OMPI_COMM_WORLD_RANK", "0"}, {"OMPI_COMM_WORLD_SIZE", "2"}}));
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("DLCNET_COORDINATOR"), std::string::npos) << e.what();
  }
}

TEST(RankEnv, RankOutsideWorldIsRejected) {
  EXPECT_THROW(
      resolve_rank_env(
          {}, env_of({{"SLURM_PROCID", "6"}, {"SLURM_NTASKS", "6"}, {"SLURM_JOB_NODELIST", "a"}})),
      Error);
}

}  // namespace
}  // namespace dlcnet
