/* A PMIx client that does what Shoal's runtime does at start-up (job info, put, commit,
 * collecting fence, get every peer's blob, barrier, finalize) and checks every value, plus
 * ways to fail on purpose so that the launcher's handling of failures can be tested.
 *
 * Usage: pmix_client [--bytes N] [--nocollect] [--exit R:K] [--segv R] [--abort R:K]
 *                    [--hang R|all] [--nofinalize R] [--intruder-after R]
 *                    [--wait-before-init R:PATH]
 *        pmix_client --intruder [ENVFILE]
 *        pmix_client --flood N ENVFILE
 * --intruder-after R: rank R, once connected, runs a copy of itself with --intruder in its own
 * environment. --wait-before-init R:PATH: rank R writes its PMIX_* variables to PATH.env and
 * waits for PATH.go before it connects. --intruder: connect as the PE the environment (or
 * ENVFILE, as PATH.env) names, then call PMIx_Abort; oshrun must refuse it. --flood: open N
 * TCP connections to the PMIx server ENVFILE names, one after another, each left open until
 * the server closes it; oshrun must refuse (close) every one.
 * Exit: 0 all checks passed, 99 a check failed (with a line saying which and both values). */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include <pmix.h>

#define KEY "shoal.wireup"

static pmix_proc_t me;

static void fail(const char *what, long expected, long got)
{
    fprintf(stderr, "pmix_client: rank %u: %s: expected %ld, got %ld\n", me.rank, what, expected,
            got);
    exit(99);
}

static void check_rc(const char *what, pmix_status_t rc)
{
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "pmix_client: rank %u: %s: %s\n", me.rank, what, PMIx_Error_string(rc));
        exit(99);
    }
}

static long get_number(pmix_rank_t rank, const char *key)
{
    pmix_proc_t p;
    pmix_value_t *v = NULL;
    pmix_status_t rc;
    long n = -1;

    PMIX_LOAD_PROCID(&p, me.nspace, rank);
    check_rc(key, PMIx_Get(&p, key, NULL, 0, &v));
    PMIX_VALUE_GET_NUMBER(rc, v, n, long);
    check_rc(key, rc);
    PMIX_VALUE_RELEASE(v);
    return n;
}

static void get_string(pmix_rank_t rank, const char *key, char *buf, size_t len)
{
    pmix_proc_t p;
    pmix_value_t *v = NULL;

    PMIX_LOAD_PROCID(&p, me.nspace, rank);
    check_rc(key, PMIx_Get(&p, key, NULL, 0, &v));
    if (v->type != PMIX_STRING) {
        fail(key, PMIX_STRING, v->type);
    }
    snprintf(buf, len, "%s", v->data.string);
    PMIX_VALUE_RELEASE(v);
}

static void fill(unsigned char *b, size_t n, unsigned rank)
{
    for (size_t i = 0; i < n; i++) {
        b[i] = (unsigned char)(rank * 31u + i * 7u + 1u);
    }
}

/* "R" or "R:K" for this rank? */
static int mode_hits(const char *arg, int *k)
{
    if (strcmp(arg, "all") == 0) {
        return 1;
    }
    if ((unsigned)atoi(arg) != me.rank) {
        return 0;
    }
    if (k != NULL) {
        const char *c = strchr(arg, ':');

        *k = c != NULL ? atoi(c + 1) : 1;
    }
    return 1;
}

/* Puts the NAME=VALUE lines of envfile (as --wait-before-init writes it) into the
 * environment; 0, or -1 after a line. */
static int load_env(const char *envfile)
{
    char line[4096];
    FILE *f = fopen(envfile, "r");

    if (f == NULL) {
        fprintf(stderr, "pmix_client: cannot open %s: %s\n", envfile, strerror(errno));
        return -1;
    }
    while (fgets(line, sizeof(line), f) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        if (strchr(line, '=') != NULL) {
            putenv(strdup(line));
        }
    }
    fclose(f);
    return 0;
}

/* Pretends to be a PE that is not its own: connects with a PE's identity and aborts the job
 * in its name. alarm: whatever the server does, it must not outlive the test. */
static int intruder(const char *envfile)
{
    pmix_status_t rc;

    alarm(3);
    if (envfile != NULL && load_env(envfile) != 0) {
        return 99;
    }
    /* Its client library would otherwise join the job's shared-memory store (gds ds21) on
     * its own, before the server has a say, and spoil the PEs' lookups in it: no launcher
     * can stop a process that writes the job's files, and that is not what is tested here. */
    setenv("PMIX_MCA_gds", "hash", 1);
    rc = PMIx_Init(&me, NULL, 0);
    fprintf(stderr, "pmix_client: intruder (pid %d) as rank %s: PMIx_Init: %s\n", (int)getpid(),
            getenv("PMIX_RANK") != NULL ? getenv("PMIX_RANK") : "?", PMIx_Error_string(rc));
    rc = PMIx_Abort(7, "intruder abort", NULL, 0);
    fprintf(stderr, "pmix_client: intruder: PMIx_Abort: %s\n", PMIx_Error_string(rc));
    return 0;
}

/* Connects n times to the PMIx server's TCP port (PMIX_SERVER_URI4 in envfile: "...;
 * tcp4://127.0.0.1:PORT"), each time waiting for the server to close the connection, as
 * oshrun does with one from outside the PEs. 0 when it closed all n, else 99. */
static int flood(int n, const char *envfile)
{
    struct sockaddr_in sa = {.sin_family = AF_INET};
    const char *uri;
    int closed = 0, port;
    char addr[64], c;

    alarm(60);
    if (n < 1 || load_env(envfile) != 0) {
        return 99;
    }
    uri = getenv("PMIX_SERVER_URI4");
    uri = uri != NULL ? strstr(uri, "tcp4://") : NULL;
    if (uri == NULL || sscanf(uri, "tcp4://%63[^:]:%d", addr, &port) != 2 ||
        inet_pton(AF_INET, addr, &sa.sin_addr) != 1) {
        fprintf(stderr, "pmix_client: flood: no tcp4:// address in PMIX_SERVER_URI4 in %s\n",
                envfile);
        return 99;
    }
    sa.sin_port = htons((uint16_t)port);
    for (int i = 0; i < n; i++) {
        int sd = socket(AF_INET, SOCK_STREAM, 0);
        struct pollfd pfd = {sd, POLLIN, 0};

        if (sd < 0 || connect(sd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
            fprintf(stderr, "pmix_client: flood: connection %d: %s\n", i, strerror(errno));
            return 99;
        }
        /* refused: closed without a byte; accepted by PMIx: it waits for our handshake */
        if (poll(&pfd, 1, 5000) == 1 && read(sd, &c, 1) <= 0) {
            closed++;
        }
        close(sd);
    }
    fprintf(stderr, "pmix_client: flood: the server closed %d of %d connections\n", closed, n);
    return closed == n ? 0 : 99;
}

/* Before connecting: hand this PE's PMIx identity to an outside process, wait until told. */
static void wait_before_init(const char *arg)
{
    extern char **environ;
    const char *colon = strchr(arg, ':'), *rank = getenv("PMIX_RANK");
    char path[4096], tmp[4096];
    FILE *f;

    if (colon == NULL || rank == NULL || atoi(arg) != atoi(rank)) {
        return;
    }
    snprintf(tmp, sizeof(tmp), "%s.env.tmp", colon + 1);
    snprintf(path, sizeof(path), "%s.env", colon + 1);
    f = fopen(tmp, "w");
    for (char **e = environ; f != NULL && *e != NULL; e++) {
        if (strncmp(*e, "PMIX_", 5) == 0) {
            fprintf(f, "%s\n", *e);
        }
    }
    if (f == NULL || fclose(f) != 0 || rename(tmp, path) != 0) {
        fprintf(stderr, "pmix_client: cannot write %s: %s\n", path, strerror(errno));
        exit(99);
    }
    snprintf(path, sizeof(path), "%s.go", colon + 1);
    for (int i = 0; i < 400 && access(path, F_OK) != 0; i++) {
        usleep(50000);
    }
}

/* Runs "argv[0] --intruder" with this PE's environment and waits for it. */
static void run_intruder(const char *self)
{
    pid_t pid = fork();
    int st;

    if (pid == 0) {
        execl(self, self, "--intruder", (char *)NULL);
        _exit(127);
    }
    if (pid < 0 || waitpid(pid, &st, 0) != pid) {
        fprintf(stderr, "pmix_client: rank %u: cannot run the intruder: %s\n", me.rank,
                strerror(errno));
        exit(99);
    }
}

int main(int argc, char **argv)
{
    size_t bytes = 512;
    bool collect = true;
    int k;
    pmix_info_t info;
    pmix_value_t val, *v;
    pmix_proc_t wild, peer;
    unsigned char *blob, *want;
    char host[256], buf[4096];
    long size;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--intruder") == 0) {
            return intruder(i + 1 < argc ? argv[i + 1] : NULL);
        } else if (strcmp(argv[i], "--flood") == 0 && i + 2 < argc) {
            return flood(atoi(argv[i + 1]), argv[i + 2]);
        } else if (strcmp(argv[i], "--wait-before-init") == 0 && i + 1 < argc) {
            wait_before_init(argv[i + 1]);
        }
    }
    check_rc("PMIx_Init", PMIx_Init(&me, NULL, 0));
    PMIX_LOAD_PROCID(&wild, me.nspace, PMIX_RANK_WILDCARD);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--bytes") == 0 && i + 1 < argc) {
            bytes = (size_t)atol(argv[++i]);
        } else if (strcmp(argv[i], "--nocollect") == 0) {
            collect = false;
        }
    }

    /* the job info a Shoal PE asks for */
    size = get_number(PMIX_RANK_WILDCARD, PMIX_JOB_SIZE);
    if (size < 1 || me.rank >= (pmix_rank_t)size) {
        fail("rank < PMIX_JOB_SIZE", size, me.rank);
    }
    /* not >= size: mpirun reports its slots here, fewer than the PEs when oversubscribed */
    if (get_number(PMIX_RANK_WILDCARD, PMIX_UNIV_SIZE) < 1) {
        fail("PMIX_UNIV_SIZE >= 1", 1, get_number(PMIX_RANK_WILDCARD, PMIX_UNIV_SIZE));
    }
    /* One node: every PE is local. Shoal decides from this whether UCX is needed. */
    if (get_number(PMIX_RANK_WILDCARD, PMIX_LOCAL_SIZE) != size) {
        fail("PMIX_LOCAL_SIZE == PMIX_JOB_SIZE", size,
             get_number(PMIX_RANK_WILDCARD, PMIX_LOCAL_SIZE));
    }
    if (get_number(PMIX_RANK_WILDCARD, PMIX_NUM_NODES) < 1) {
        fail("PMIX_NUM_NODES >= 1", 1, get_number(PMIX_RANK_WILDCARD, PMIX_NUM_NODES));
    }
    if (get_number(me.rank, PMIX_LOCAL_RANK) < 0 || get_number(me.rank, PMIX_NODE_RANK) < 0 ||
        get_number(me.rank, PMIX_NODEID) < 0 ||
        get_number((me.rank + 1) % (pmix_rank_t)size, PMIX_LOCAL_RANK) < 0) {
        fail("local/node rank, node id >= 0", 0, -1);
    }
    get_string(PMIX_RANK_WILDCARD, PMIX_LOCAL_PEERS, buf, sizeof(buf));
    get_string(PMIX_RANK_WILDCARD, PMIX_JOBID, buf, sizeof(buf));
    get_string(me.rank, PMIX_HOSTNAME, host, sizeof(host));
    get_string((me.rank + 1) % (pmix_rank_t)size, PMIX_HOSTNAME, buf, sizeof(buf));

    /* publish a blob, exchange, read every peer's and compare */
    blob = malloc(bytes);
    want = malloc(bytes);
    fill(blob, bytes, me.rank);
    val.type = PMIX_BYTE_OBJECT;
    val.data.bo.bytes = (char *)blob;
    val.data.bo.size = bytes;
    check_rc("PMIx_Put", PMIx_Put(PMIX_GLOBAL, KEY, &val));
    check_rc("PMIx_Commit", PMIx_Commit());
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    check_rc("PMIx_Fence(collect)", PMIx_Fence(NULL, 0, &info, 1));
    for (pmix_rank_t r = 0; r < (pmix_rank_t)size; r++) {
        PMIX_LOAD_PROCID(&peer, me.nspace, r);
        check_rc("PMIx_Get(" KEY ")", PMIx_Get(&peer, KEY, NULL, 0, &v));
        if (v->type != PMIX_BYTE_OBJECT || v->data.bo.size != bytes) {
            fail("peer blob size", (long)bytes, (long)v->data.bo.size);
        }
        fill(want, bytes, r);
        for (size_t i = 0; i < bytes; i++) {
            if ((unsigned char)v->data.bo.bytes[i] != want[i]) {
                fprintf(stderr,
                        "pmix_client: rank %u: blob of rank %u, byte %zu: expected %u, got %u\n",
                        me.rank, r, i, want[i], (unsigned char)v->data.bo.bytes[i]);
                exit(99);
            }
        }
        PMIX_VALUE_RELEASE(v);
    }

    /* failures on request, after the exchange (so the peers are in the barrier) */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *arg = i + 1 < argc ? argv[i + 1] : "-1";

        if (strcmp(a, "--exit") == 0 && mode_hits(arg, &k)) {
            exit(k);
        } else if (strcmp(a, "--segv") == 0 && mode_hits(arg, NULL)) {
            raise(SIGSEGV);
        } else if (strcmp(a, "--abort") == 0 && mode_hits(arg, &k)) {
            PMIx_Abort(k, "test abort", NULL, 0);
            sleep(30); /* the launcher ends us */
            exit(98);
        } else if (strcmp(a, "--hang") == 0 && mode_hits(arg, NULL)) {
            for (;;) {
                pause();
            }
        } else if (strcmp(a, "--nofinalize") == 0 && mode_hits(arg, NULL)) {
            exit(0);
        } else if (strcmp(a, "--intruder-after") == 0 && mode_hits(arg, NULL)) {
            run_intruder(argv[0]);
        }
    }

    /* A fence fails when a peer died. As Shoal's runtime does, wait for the launcher to end
     * the job rather than exit: exiting first would race the dead peer for blame. */
    if (PMIx_Fence(NULL, 0, NULL, 0) != PMIX_SUCCESS) {
        sleep(10);
        check_rc("PMIx_Fence(barrier)", PMIX_ERR_TIMEOUT);
    }
    check_rc("PMIx_Finalize", PMIx_Finalize(NULL, 0));
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *arg = i + 1 < argc ? argv[i + 1] : "-1";

        if (strcmp(a, "--exit-after-finalize") == 0 && mode_hits(arg, &k)) {
            exit(k);
        } else if (strcmp(a, "--linger-after-finalize") == 0 && mode_hits(arg, &k)) {
            usleep((useconds_t)k * 1000);
            printf("pmix_client: rank %u lingered %d ms after finalizing\n", me.rank, k);
            fflush(stdout);
        }
    }
    if (me.rank == 0) {
        printf("pmix_client: %ld PEs on %s, %zu-byte blobs exchanged and verified\n", size, host,
               bytes);
    }
    free(blob);
    free(want);
    return 0;
}
