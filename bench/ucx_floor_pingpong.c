/* ucx_floor_pingpong.c: the floor under dlc-bench's UCX tag latency: a bare UCP ping-pong made
 * with every UCX setting dlcnet's transport uses, and none of its layers (bench/ucx_layers.sh).
 *
 * Same as ucx/ (UcxTransport) and patterns/pingpong_latency.cpp: context features TAG|RMA with
 * a request_size, a worker in UCS_THREAD_MODE_SERIALIZED, endpoint error mode from -E, both
 * buffers in one UCX-allocated region [out | in] of two pages, passed by memory handle, sends
 * and receives with a callback, receives matching the full tag (kind | sender rank) and posted
 * two ahead for the whole in area, NO_IMM_CMPL on receives, the marker written into the last
 * byte of each ping and read back from each reply, one clock read per iteration (the TSC on
 * x86, as dlc-bench and ucx_perftest). What it leaves out is exactly dlcnet's own work: the
 * Transport interface, credits and operation slots, completion records, the worker gate and
 * the idle-progress thread, the pattern's session and its per-message records.
 *
 * build: cc -O2 -Wall -Wextra -Werror -o /tmp/ucx_floor_pingpong bench/ucx_floor_pingpong.c \
 *          -lucp -lucs
 * run:   UCX_TLS=posix,cma ucx_floor_pingpong -p PORT [-n ITERS] [-w WARMUP] [-s SIZE]
 *          [-E none|peer] [SERVER]        (no SERVER: this is the server, the responder)
 * The client prints one JSON object on stdout: {"p50_us": ..., "iterations": ..., ...}, the
 * median half round trip. Every wait gives up after 30 s with a message naming it.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <ucp/api/ucp.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#define AREA 4096
#define TIMEOUT_S 30
#define DATA_KIND ((ucp_tag_t)0x01 << 56)

static void die(const char* what, const char* detail) {
  fprintf(stderr, "ucx_floor_pingpong: %s: %s\n", what, detail);
  exit(1);
}

static void check(ucs_status_t s, const char* call) {
  if (s != UCS_OK) die(call, ucs_status_string(s));
}

static int64_t mono_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static uint64_t ticks(void) {
#if defined(__x86_64__)
  return __rdtsc();
#else
  return (uint64_t)mono_ns();
#endif
}

static void write_all(int fd, const void* p, size_t n) {
  const char* c = p;
  while (n > 0) {
    ssize_t k = write(fd, c, n);
    if (k <= 0) die("out-of-band write", "peer gone");
    c += k;
    n -= (size_t)k;
  }
}

static void read_all(int fd, void* p, size_t n) {
  char* c = p;
  while (n > 0) {
    ssize_t k = read(fd, c, n);
    if (k <= 0) die("out-of-band read", "peer gone or timed out");
    c += k;
    n -= (size_t)k;
  }
}

/* The server accepts one client; the client retries until the server listens (30 s at most). */
static int oob_connect(const char* server, int port) {
  int fd = -1;
  if (server == NULL) {
    int l = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    a.sin_addr.s_addr = htonl(INADDR_ANY);
    setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct timeval tv = {TIMEOUT_S, 0};
    setsockopt(l, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    if (bind(l, (struct sockaddr*)&a, sizeof a) != 0 || listen(l, 1) != 0)
      die("listen", "port in use?");
    fd = accept(l, NULL, NULL);
    close(l);
    if (fd < 0) die("accept", "no client within 30 s");
  } else {
    struct addrinfo hints = {.ai_family = AF_INET, .ai_socktype = SOCK_STREAM}, *ai = NULL;
    char service[16];
    snprintf(service, sizeof service, "%d", port);
    if (getaddrinfo(server, service, &hints, &ai) != 0) die("resolve", server);
    int64_t deadline = mono_ns() + (int64_t)TIMEOUT_S * 1000000000;
    for (;;) {
      fd = socket(AF_INET, SOCK_STREAM, 0);
      if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0) break;
      close(fd);
      if (mono_ns() > deadline) die("connect", "no server within 30 s");
      usleep(20000);
    }
    freeaddrinfo(ai);
  }
  struct timeval tv = {TIMEOUT_S, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  return fd;
}

struct recv_slot {
  volatile int done;
  void* request; /* while posted: cancelled at the end */
};

static void on_recv(void* req, ucs_status_t status, const ucp_tag_recv_info_t* info, void* arg) {
  (void)info;
  if (status != UCS_OK && status != UCS_ERR_CANCELED) die("receive", ucs_status_string(status));
  ((struct recv_slot*)arg)->done = 1;
  ((struct recv_slot*)arg)->request = NULL;
  ucp_request_free(req);
}

static void on_send(void* req, ucs_status_t status, void* arg) {
  (void)arg;
  if (status != UCS_OK) die("send", ucs_status_string(status));
  ucp_request_free(req);
}

struct pp {
  ucp_worker_h worker;
  ucp_ep_h ep;
  ucp_mem_h memh;
  uint8_t *out, *in;
  size_t size;
  int rank, peer;
  struct recv_slot slot[2];
};

static void post_recv(struct pp* p, struct recv_slot* s) {
  ucp_request_param_t prm;
  prm.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA |
                     UCP_OP_ATTR_FIELD_MEMH | UCP_OP_ATTR_FLAG_NO_IMM_CMPL;
  prm.cb.recv = on_recv;
  prm.user_data = s;
  prm.memh = p->memh;
  s->done = 0;
  ucs_status_ptr_t r =
      ucp_tag_recv_nbx(p->worker, p->in, AREA, DATA_KIND | (uint32_t)p->peer, ~(ucp_tag_t)0, &prm);
  if (UCS_PTR_IS_ERR(r)) die("ucp_tag_recv_nbx", ucs_status_string(UCS_PTR_STATUS(r)));
  if (!s->done) s->request = r;
}

static void send_ping(struct pp* p, uint8_t marker) {
  p->out[p->size - 1] = marker;
  ucp_request_param_t prm;
  prm.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_MEMH;
  prm.cb.send = on_send;
  prm.memh = p->memh;
  ucs_status_ptr_t r =
      ucp_tag_send_nbx(p->ep, p->out, p->size, DATA_KIND | (uint32_t)p->rank, &prm);
  if (UCS_PTR_IS_ERR(r)) die("ucp_tag_send_nbx", ucs_status_string(UCS_PTR_STATUS(r)));
}

/* Waits for the message in slot k; returns the marker it carried. */
static uint8_t await_reply(struct pp* p, int k) {
  int64_t since = 0; /* read at the first check: no clock read on the fast path */
  for (uint32_t spins = 1; !p->slot[k].done; ++spins) {
    ucp_worker_progress(p->worker);
    if (spins % (1u << 20) == 0) {
      if (since == 0) since = mono_ns();
      if (mono_ns() - since > (int64_t)TIMEOUT_S * 1000000000)
        die("waiting for a reply", "none within 30 s (peer gone?)");
    }
  }
  return ((volatile uint8_t*)p->in)[p->size - 1];
}

static int cmp_u64(const void* a, const void* b) {
  uint64_t x = *(const uint64_t*)a, y = *(const uint64_t*)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char** argv) {
  int port = 18515, err_peer = 0;
  long iters = 20000, warmup = 100;
  size_t size = 64;
  const char* server = NULL;
  for (int i = 1; i < argc; ++i) {
    if (i + 1 < argc && strcmp(argv[i], "-p") == 0)
      port = atoi(argv[++i]);
    else if (i + 1 < argc && strcmp(argv[i], "-n") == 0)
      iters = atol(argv[++i]);
    else if (i + 1 < argc && strcmp(argv[i], "-w") == 0)
      warmup = atol(argv[++i]);
    else if (i + 1 < argc && strcmp(argv[i], "-s") == 0)
      size = (size_t)atol(argv[++i]);
    else if (i + 1 < argc && strcmp(argv[i], "-E") == 0)
      err_peer = strcmp(argv[++i], "peer") == 0;
    else if (argv[i][0] != '-' && server == NULL)
      server = argv[i];
    else
      die("usage", "[-p PORT] [-n ITERS] [-w WARMUP] [-s SIZE] [-E none|peer] [SERVER]");
  }
  if (iters < 1 || warmup < 0 || size < 1 || size > AREA) die("usage", "bad -n, -w or -s");

  ucp_config_t* config;
  check(ucp_config_read(NULL, NULL, &config), "ucp_config_read");
  ucp_params_t cp = {.field_mask = UCP_PARAM_FIELD_FEATURES | UCP_PARAM_FIELD_REQUEST_SIZE,
                     .features = UCP_FEATURE_TAG | UCP_FEATURE_RMA,
                     .request_size = sizeof(void*)};
  ucp_context_h ctx;
  check(ucp_init(&cp, config, &ctx), "ucp_init");
  ucp_config_release(config);
  ucp_worker_params_t wp = {.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE,
                            .thread_mode = UCS_THREAD_MODE_SERIALIZED};
  struct pp p = {.size = size, .rank = server == NULL ? 0 : 1, .peer = server == NULL ? 1 : 0};
  check(ucp_worker_create(ctx, &wp, &p.worker), "ucp_worker_create");

  ucp_mem_map_params_t mp = {.field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS |
                                           UCP_MEM_MAP_PARAM_FIELD_LENGTH |
                                           UCP_MEM_MAP_PARAM_FIELD_FLAGS,
                             .address = NULL,
                             .length = 2 * AREA,
                             .flags = UCP_MEM_MAP_ALLOCATE};
  check(ucp_mem_map(ctx, &mp, &p.memh), "ucp_mem_map");
  ucp_mem_attr_t ma = {.field_mask = UCP_MEM_ATTR_FIELD_ADDRESS};
  check(ucp_mem_query(p.memh, &ma), "ucp_mem_query");
  p.out = ma.address;
  p.in = p.out + AREA;
  memset(p.out, 0, 2 * AREA);

  ucp_address_t* addr;
  size_t alen;
  check(ucp_worker_get_address(p.worker, &addr, &alen), "ucp_worker_get_address");
  int fd = oob_connect(server, port);
  uint64_t n = alen;
  write_all(fd, &n, sizeof n);
  write_all(fd, addr, alen);
  read_all(fd, &n, sizeof n);
  if (n == 0 || n > (1u << 20)) die("out-of-band", "bad address length");
  void* peer_addr = malloc(n);
  if (peer_addr == NULL) die("malloc", "out of memory");
  read_all(fd, peer_addr, n);
  ucp_worker_release_address(p.worker, addr);
  ucp_ep_params_t ep = {
      .field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS | UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE,
      .address = peer_addr,
      .err_mode = err_peer ? UCP_ERR_HANDLING_MODE_PEER : UCP_ERR_HANDLING_MODE_NONE};
  check(ucp_ep_create(p.worker, &ep, &p.ep), "ucp_ep_create");
  post_recv(&p, &p.slot[0]);
  post_recv(&p, &p.slot[1]);
  char c = 'r';
  write_all(fd, &c, 1);  // both have receives posted before the first ping
  read_all(fd, &c, 1);

  const long total = warmup + iters;
  uint64_t* rtt = malloc(sizeof(uint64_t) * (size_t)iters);
  if (rtt == NULL) die("malloc", "out of memory");
  int k = 0;
  const int64_t ns0 = mono_ns();
  const uint64_t tick0 = ticks();
  uint64_t t0 = tick0;
  for (long i = 0; i < total; ++i) {
    uint8_t m = (uint8_t)(1 + i % 254);
    if (p.rank == 1) {  // the client pings
      send_ping(&p, m);
      if (i > 0) post_recv(&p, &p.slot[k ^ 1]); /* the previous reply's, while the ping travels */
      if (await_reply(&p, k) != m) die("ping-pong", "reply carries the wrong marker");
      uint64_t t = ticks();
      if (i >= warmup) rtt[i - warmup] = t - t0;
      t0 = t;
    } else {
      send_ping(&p, await_reply(&p, k));
      post_recv(&p, &p.slot[k]); /* the next-but-one ping's, while the reply travels */
    }
    k ^= 1;
  }
  const uint64_t tick1 = ticks();
  const int64_t ns1 = mono_ns();
  write_all(fd, &c, 1);  // neither side tears down while the other still waits
  read_all(fd, &c, 1);
  if (p.rank == 1) {
    /* Ticks to nanoseconds over the loop itself, against CLOCK_MONOTONIC. */
    double per_tick = tick1 > tick0 ? (double)(ns1 - ns0) / (double)(tick1 - tick0) : 1.0;
    qsort(rtt, (size_t)iters, sizeof rtt[0], cmp_u64);
    double p50 = (double)rtt[iters / 2] * per_tick / 2.0 / 1000.0;
    printf(
        "{\"p50_us\": %.4f, \"iterations\": %ld, \"warmup\": %ld, \"size\": %zu, "
        "\"ucx_version\": \"%s\"}\n",
        p50, iters, warmup, size, ucp_get_version_string());
  }
  for (int j = 0; j < 2; ++j)
    if (p.slot[j].request != NULL) ucp_request_cancel(p.worker, p.slot[j].request);
  int64_t deadline = mono_ns() + 1000000000;
  while ((p.slot[0].request != NULL || p.slot[1].request != NULL) && mono_ns() < deadline)
    ucp_worker_progress(p.worker);
  ucp_request_param_t close_prm = {.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS, .flags = 0};
  ucs_status_ptr_t r = ucp_ep_close_nbx(p.ep, &close_prm);
  deadline = mono_ns() + 1000000000;
  while (r != NULL && !UCS_PTR_IS_ERR(r) && ucp_request_check_status(r) == UCS_INPROGRESS &&
         mono_ns() < deadline)
    ucp_worker_progress(p.worker);
  if (r != NULL && !UCS_PTR_IS_ERR(r)) ucp_request_free(r);
  close(fd);
  free(rtt);
  free(peer_addr);
  ucp_mem_unmap(ctx, p.memh);
  ucp_worker_destroy(p.worker);
  ucp_cleanup(ctx);
  return 0;
}
