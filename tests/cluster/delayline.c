/*
 * delayline.c - the user-space link emulator of the heterogeneous test
 * bed (tests/cluster/bed).  This kernel has no netem, and HTB
 * lets the first TSO burst of 64 KiB through unshaped, so the bed sends
 * every shaped frame here instead: tc mirred redirects a host's frames
 * for the other hosts into its out-TAP; this program serialises each
 * frame at the link's rate (store and forward, one frame after the other
 * per directed link), holds it for the link's delay, then writes it into
 * the destination host's in-TAP, whence tc mirred hands it to that
 * host's veth as if it had arrived there.
 *
 *   delayline CONFIG
 *
 * CONFIG, one item a line ('#' starts a comment):
 *   host K A.B.C.D          host K (0..63) has this IPv4 address
 *   link K L RATE_BPS DELAY_US   both directions between K and L
 *   height H RATE_BPS DELAY_US BUFFER_BYTES
 *
 * With height lines (H = 1..D, 2^D hosts; no link lines) the hosts are
 * the leaves of a perfect binary tree of switches, as PlogPT models a
 * cluster: every edge whose parent switch has height H, each direction
 * on its own (full duplex), serialises at RATE_BPS, holds a frame
 * DELAY_US, and queues at most BUFFER_BYTES waiting to be serialised: a
 * frame that would overflow that buffer is dropped (drop tail), which is
 * what makes TCP time out.  A host's uplink is unbounded: the host's
 * queue discipline holds TCP back instead of dropping.  A frame from host a to b climbs the edges
 * above a up to the height of the highest bit in which a and b differ,
 * then descends those above b, stored and forwarded at each; frames of
 * several transfers on one edge are served first come, first served, so
 * TCP flows share it about evenly.  Not reproduced: a switch's shared
 * buffer memory, pause frames, ECN, priorities.
 *
 * Creates the TAPs cpbed-oK and cpbed-iK in the current network
 * namespace (the bed moves them), prints "ready" on stdout, and runs
 * until SIGTERM or SIGINT; then prints per-link counts on stderr.
 * Exit 0, 1 (failure), 2 (usage).
 *
 * A frame occupies the wire for its length plus 24 bytes (FCS 4,
 * preamble 8, inter-frame gap 12): a TCP segment of 1448 payload bytes
 * (MSS 1460 less 12 of timestamps) costs 1514 + 24 = 1538 bytes of wire
 * time, so a bulk transfer sees 1448 / 1538 = 0.9415 of the rate.
 *
 * With link lines the TAPs take TCP's segmentation offload (a
 * virtio-net header before each frame): a read gives up to 64 KiB that
 * the sender's stack would have cut into segments, and the line charges
 * the wire for every one of them, headers and the 24 bytes each
 * included, then hands the whole on at once (the last segment's time:
 * what a message's last byte sees on one link either way).  A tree
 * keeps MTU frames, since its buffers drop frame by frame; so do links
 * when CPBED_MTU_FRAMES=1 is in the environment.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <linux/virtio_net.h>
#include <endian.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>

#define MAX_HOSTS	64
#define MAX_HEIGHT	6	/* 2^6 = MAX_HOSTS leaves */
#define FRAME_MAX	(1 << 17)	/* a GSO frame: <= 64 KiB + headers */
#define VNET_LEN	((size_t)sizeof(struct virtio_net_hdr))
#define WIRE_EXTRA	24	/* FCS + preamble + inter-frame gap, bytes */
#define SPIN_NS		20000	/* closer than this: spin, do not sleep */

struct frame {
	struct frame *next;
	uint64_t release_ns;	/* CLOCK_MONOTONIC when it leaves the link */
	size_t len;		/* bytes, Ethernet header included (links:
				 * and the virtio-net header before it) */
	double wire;		/* bytes on the wire, every segment's */
	int src, dst;		/* hosts */
	int hop;		/* tree: edges passed, 0 .. 2h - 1 */
	unsigned char data[];
};

/* One direction of one link. */
struct link {
	double rate_bps;	/* 0: no link, frames dropped */
	uint64_t delay_ns;	/* propagation delay */
	double buffer_bytes;	/* tree: most bytes waiting; 0 unbounded */
	uint64_t busy_ns;	/* wire busy until (serialisation) */
	struct frame *head, *tail;	/* FIFO: equal delays keep order */
	uint64_t frames, bytes;	/* forwarded */
	uint64_t full;		/* dropped at a full buffer */
};

static struct link links[MAX_HOSTS][MAX_HOSTS];
/* tree: edges[up][h][i], the edge above node i of height h - 1 */
static struct link edges[2][MAX_HEIGHT + 1][MAX_HOSTS];
static int height;		/* D, 0: no tree */
static uint64_t overflows;	/* tree: frames dropped at a full buffer */
static uint32_t host_ip[MAX_HOSTS];	/* network order, 0: unused */
static int out_fd[MAX_HOSTS], in_fd[MAX_HOSTS];
static int nhosts;
static uint64_t dropped;
/* Links (no tree): the TAPs carry a virtio-net header and take TCP's
 * segmentation offload, so that a read gives a whole GSO frame of up to
 * 64 KiB, serialised as the segments it stands for (wire_bytes): one
 * pass through the line and the hosts' stacks instead of up to 44.  On
 * a paravirtualised 2-core guest LMO's per-byte terms across the bed
 * came out 0.69 to 1.35 of the framed rates with MTU frames, 0.94 to
 * 1.16 with GSO frames (README, "Heterogeneous test bed").  The tree
 * keeps MTU frames: its buffers drop frame by frame. */
static int gso;
static uint64_t gso_frames;	/* frames that stood for several */
static volatile sig_atomic_t stop;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* Open a TAP named name, no packet information header, non-blocking.
 * Returns the fd or -1 (message printed). */
static int tap_open(const char *name)
{
	struct ifreq ifr;
	int fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0) {
		perror("delayline: /dev/net/tun");
		return -1;
	}
	memset(&ifr, 0, sizeof(ifr));
	ifr.ifr_flags = IFF_TAP | IFF_NO_PI | (gso ? IFF_VNET_HDR : 0);
	snprintf(ifr.ifr_name, IFNAMSIZ, "%s", name);
	if (ioctl(fd, TUNSETIFF, &ifr) < 0) {
		fprintf(stderr, "delayline: %s: %s\n", name, strerror(errno));
		close(fd);
		return -1;
	}
	if (gso && ioctl(fd, TUNSETOFFLOAD, (unsigned long)(TUN_F_CSUM |
			 TUN_F_TSO4 | TUN_F_TSO6 | TUN_F_TSO_ECN)) < 0) {
		fprintf(stderr, "delayline: %s: no offload (%s): MTU frames\n",
			name, strerror(errno));
	}
	return fd;
}

static int parse_config(const char *path)
{
	char line[256], ip[64];
	double rate, delay_us, buf;
	FILE *f = fopen(path, "r");
	int k, l, no = 0, nlinks = 0, i;

	if (!f) {
		fprintf(stderr, "delayline: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		no++;
		line[strcspn(line, "#\n")] = '\0';
		if (line[strspn(line, " \t")] == '\0')
			continue;
		if (sscanf(line, " host %d %63s", &k, ip) == 2 && k >= 0 &&
		    k < MAX_HOSTS && inet_pton(AF_INET, ip, &host_ip[k]) == 1) {
			if (k >= nhosts)
				nhosts = k + 1;
		} else if (sscanf(line, " link %d %d %lf %lf", &k, &l, &rate,
				  &delay_us) == 4 && k >= 0 && l >= 0 &&
			   k < MAX_HOSTS && l < MAX_HOSTS && k != l &&
			   rate > 0 && delay_us >= 0) {
			links[k][l].rate_bps = links[l][k].rate_bps = rate;
			links[k][l].delay_ns = links[l][k].delay_ns =
				(uint64_t)(delay_us * 1000);
			nlinks++;
		} else if (sscanf(line, " height %d %lf %lf %lf", &k, &rate,
				  &delay_us, &buf) == 4 && k >= 1 &&
			   k <= MAX_HEIGHT && rate > 0 && delay_us >= 0 &&
			   buf >= 0) {
			for (i = 0; i < MAX_HOSTS; i++)
				for (l = 0; l < 2; l++) {
					edges[l][k][i].rate_bps = rate;
					edges[l][k][i].delay_ns =
						(uint64_t)(delay_us * 1000);
					/* a host's own uplink is its
					 * qdisc: TCP waits, nothing drops */
					edges[l][k][i].buffer_bytes =
						l && k == 1 ? 0 : buf;
				}
			if (k > height)
				height = k;
		} else {
			fprintf(stderr, "delayline: %s:%d: bad line\n", path,
				no);
			fclose(f);
			return -1;
		}
	}
	fclose(f);
	for (k = 0; k < nhosts; k++)
		if (!host_ip[k]) {
			fprintf(stderr, "delayline: host %d missing\n", k);
			return -1;
		}
	for (k = 1; k <= height; k++)
		if (!edges[0][k][0].rate_bps) {
			fprintf(stderr, "delayline: height %d missing\n", k);
			return -1;
		}
	if (height && (nlinks || nhosts != 1 << height)) {
		fprintf(stderr, "delayline: a tree of height %d needs %d "
			"hosts and no link lines\n", height, 1 << height);
		return -1;
	}
	return nhosts > 1 ? 0 : -1;
}

static int host_of(uint32_t ip)
{
	int k;

	for (k = 0; k < nhosts; k++)
		if (host_ip[k] == ip)
			return k;
	return -1;
}

/* Serialise frame fr on lk from time t on: it leaves lk when its bits
 * are on the wire plus the delay.  A bounded buffer that cannot take it
 * (the bytes still to serialise before it, plus its own) drops it.
 * Returns 0, or -1 when dropped (fr freed). */
static int link_put(struct link *lk, struct frame *fr, uint64_t t)
{
	uint64_t start = lk->busy_ns > t ? lk->busy_ns : t;
	double wait_bytes = (double)(start - t) * lk->rate_bps / 8e9;

	if (lk->buffer_bytes > 0 && wait_bytes + fr->len > lk->buffer_bytes) {
		overflows++;
		lk->full++;
		free(fr);
		return -1;
	}
	lk->busy_ns = start + (uint64_t)(fr->wire * 8 * 1e9 / lk->rate_bps);
	fr->release_ns = lk->busy_ns + lk->delay_ns;
	fr->next = NULL;
	if (lk->tail)
		lk->tail->next = fr;
	else
		lk->head = fr;
	lk->tail = fr;
	return 0;
}

/* Tree: height of the transfer a -> b, 1 + highest differing bit. */
static int xfer_height(int a, int b)
{
	int h = 0;

	for (a ^= b; a; a >>= 1)
		h++;
	return h;
}

/* Tree: the edge of frame fr's hop (climbing, then descending). */
static struct link *hop_edge(const struct frame *fr)
{
	int h = xfer_height(fr->src, fr->dst), k;

	if (fr->hop < h) {
		k = fr->hop + 1;
		return &edges[1][k][fr->src >> (k - 1)];
	}
	k = 2 * h - fr->hop;
	return &edges[0][k][fr->dst >> (k - 1)];
}

/* Bytes on the wire of Ethernet frame e of len bytes, with virtio-net
 * header vh (NULL: none): short frames padded to 60, WIRE_EXTRA each; a
 * GSO frame as its *nseg segments, each with the frame's headers. */
static double wire_bytes(const struct virtio_net_hdr *vh,
			 const unsigned char *e, size_t len, size_t *nseg)
{
	size_t hl, seg;

	*nseg = 1;
	if (!vh || vh->gso_type == VIRTIO_NET_HDR_GSO_NONE ||
	    !le16toh(vh->gso_size) || len < 14 + 20 + 20)
		return (double)((len < 60 ? 60 : len) + WIRE_EXTRA);
	/* Ethernet, IPv4 (IHL words), TCP (data offset words) */
	hl = 14 + (size_t)(e[14] & 0x0f) * 4;
	if (hl + 13 > len)
		return (double)(len + WIRE_EXTRA);
	hl += (size_t)(e[hl + 12] >> 4) * 4;
	seg = le16toh(vh->gso_size);
	if (hl >= len)
		return (double)(len + WIRE_EXTRA);
	*nseg = (len - hl + seg - 1) / seg;
	return (double)(len + (*nseg - 1) * hl + *nseg * WIRE_EXTRA);
}

/* Queue one frame read from host src's out-TAP at time t (links: after
 * its virtio-net header). */
static void enqueue(int src, const unsigned char *buf, size_t len,
		    uint64_t t)
{
	const struct virtio_net_hdr *vh = NULL;
	const unsigned char *e = buf;
	size_t elen = len;
	struct frame *fr;
	struct link *lk;
	uint32_t dst_ip;
	size_t nseg;
	int dst;

	if (gso) {
		if (len < VNET_LEN)
			goto drop;
		vh = (const struct virtio_net_hdr *)buf;
		e = buf + VNET_LEN;
		elen = len - VNET_LEN;
	}
	/* IPv4 only (ethertype 0x0800): the bed redirects nothing else */
	if (elen < 34 || e[12] != 0x08 || e[13] != 0x00)
		goto drop;
	memcpy(&dst_ip, e + 14 + 16, 4);
	dst = host_of(dst_ip);
	if (dst < 0 || dst == src || (!height && !links[src][dst].rate_bps))
		goto drop;
	fr = malloc(sizeof(*fr) + len);
	if (!fr)
		goto drop;
	memcpy(fr->data, buf, len);
	fr->len = len;
	fr->wire = wire_bytes(vh, e, elen, &nseg);
	gso_frames += nseg > 1;
	fr->src = src;
	fr->dst = dst;
	fr->hop = 0;
	lk = height ? hop_edge(fr) : &links[src][dst];
	link_put(lk, fr, t);
	return;
drop:
	dropped++;
}

/* Frames of lk due at t: out to their host, or on to their next edge.
 * Returns how many moved; *next: the earliest release left. */
static int release_link(struct link *lk, uint64_t t, uint64_t *next)
{
	struct frame *fr;
	int moved = 0;

	while ((fr = lk->head) && fr->release_ns <= t) {
		lk->head = fr->next;
		if (!lk->head)
			lk->tail = NULL;
		lk->frames++;
		lk->bytes += fr->len;
		moved++;
		if (height && ++fr->hop < 2 * xfer_height(fr->src, fr->dst)) {
			link_put(hop_edge(fr), fr, fr->release_ns);
			continue;
		}
		if (write(in_fd[fr->dst], fr->data, fr->len) !=
		    (ssize_t)fr->len)
			dropped++;
		free(fr);
	}
	if (fr && fr->release_ns < *next)
		*next = fr->release_ns;
	return moved;
}

/* Write out every frame due at t; return the next release time or
 * UINT64_MAX. */
static uint64_t release(uint64_t t)
{
	uint64_t next;
	int a, b, moved;

	do {
		next = UINT64_MAX;
		moved = 0;
		if (!height)
			for (a = 0; a < nhosts; a++)
				for (b = 0; b < nhosts; b++)
					moved += release_link(&links[a][b], t,
							      &next);
		for (a = 0; a < 2; a++)
			for (b = 1; b <= height; b++)
				for (int i = 0; i < nhosts >> (b - 1); i++)
					moved += release_link(&edges[a][b][i],
							      t, &next);
	} while (moved);
	return next;
}

static void drain(struct pollfd *pf)
{
	static unsigned char buf[FRAME_MAX];
	uint64_t t = now_ns();
	ssize_t len;
	int k;

	for (k = 0; k < nhosts; k++) {
		if (!(pf[k].revents & POLLIN))
			continue;
		while ((len = read(out_fd[k], buf, sizeof(buf))) > 0)
			enqueue(k, buf, (size_t)len, t);
	}
}

static void run(void)
{
	struct pollfd pf[MAX_HOSTS];
	struct timespec ts, *tp;
	uint64_t next, t;
	int k;

	for (k = 0; k < nhosts; k++) {
		pf[k].fd = out_fd[k];
		pf[k].events = POLLIN;
	}
	while (!stop) {
		t = now_ns();
		next = release(t);
		tp = NULL;
		if (next != UINT64_MAX) {
			if (next <= t + SPIN_NS) {
				/* sub-timer-resolution wait: poll without
				 * sleeping, then release again */
				ts.tv_sec = 0;
				ts.tv_nsec = 0;
			} else {
				ts.tv_sec = (time_t)((next - t) / 1000000000u);
				ts.tv_nsec = (long)((next - t) % 1000000000u);
			}
			tp = &ts;
		}
		if (ppoll(pf, (nfds_t)nhosts, tp, NULL) > 0)
			drain(pf);
	}
}

/* Real-time priority keeps the line ahead of the busy-polling ranks;
 * without it (no permission) the bed still works, with more jitter. */
static void go_realtime(void)
{
	struct sched_param sp = { .sched_priority = 50 };

	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	if (sched_setscheduler(0, SCHED_FIFO, &sp))
		fprintf(stderr, "delayline: no SCHED_FIFO (%s): timing "
			"jitter will be larger\n", strerror(errno));
	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		fprintf(stderr, "delayline: mlockall: %s\n", strerror(errno));
}

static void report(void)
{
	int a, b;

	for (a = 0; a < nhosts; a++)
		for (b = 0; b < nhosts; b++)
			if (links[a][b].rate_bps)
				fprintf(stderr, "delayline: %d->%d %llu frames "
					"%llu bytes\n", a, b,
					(unsigned long long)links[a][b].frames,
					(unsigned long long)links[a][b].bytes);
	for (a = 0; a < 2; a++)
		for (b = 1; b <= height; b++)
			for (int i = 0; i < nhosts >> (b - 1); i++)
				fprintf(stderr, "delayline: height %d %s of "
					"node %d: %llu frames %llu bytes, "
					"%llu dropped full\n", b,
					a ? "up" : "down", i,
					(unsigned long long)edges[a][b][i].frames,
					(unsigned long long)edges[a][b][i].bytes,
					(unsigned long long)edges[a][b][i].full);
	fprintf(stderr, "delayline: %llu frames dropped, %llu at full "
		"buffers\n", (unsigned long long)dropped,
		(unsigned long long)overflows);
	if (gso)
		fprintf(stderr, "delayline: %llu GSO frames of several "
			"segments\n", (unsigned long long)gso_frames);
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	char name[IFNAMSIZ];
	int k;

	if (argc != 2) {
		fprintf(stderr, "usage: delayline CONFIG\n");
		return 2;
	}
	if (parse_config(argv[1]))
		return 2;
	/* CPBED_MTU_FRAMES=1: MTU frames on links too, as before the
	 * offload (an A/B of the two on another machine) */
	gso = !height && !(getenv("CPBED_MTU_FRAMES") &&
			   strcmp(getenv("CPBED_MTU_FRAMES"), "0"));
	for (k = 0; k < nhosts; k++) {
		snprintf(name, sizeof(name), "cpbed-o%u", (unsigned char)k);
		out_fd[k] = tap_open(name);
		snprintf(name, sizeof(name), "cpbed-i%u", (unsigned char)k);
		in_fd[k] = tap_open(name);
		if (out_fd[k] < 0 || in_fd[k] < 0)
			return 1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	go_realtime();
	printf("ready\n");
	fflush(stdout);
	run();
	report();
	return 0;
}
