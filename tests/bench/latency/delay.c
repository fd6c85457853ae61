/* A TCP proxy that holds every chunk for a fixed time before passing it on: a database on another host, one network
 * hop away, for benchmarks on one machine whose kernel has no netem. One thread, epoll, one FIFO of chunks (the
 * delay is the same for all, so the FIFO is in deadline order) and a timerfd armed at the head's deadline.
 *
 *     delay LISTEN_PORT UPSTREAM_PORT DELAY_US      (both on 127.0.0.1; DELAY_US each way)
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

/* A connection's two ends live as long as the proxy (a benchmark makes tens of connections), so that a chunk or an
 * epoll event never points at freed memory. */
typedef struct end { int fd; struct end *peer; int closed; } end;
typedef struct chunk { struct chunk *next; end *to; uint64_t due; size_t len; char data[]; } chunk;

static chunk *head, *tail;
static uint64_t delay_ns;

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void arm(int timer) {
    struct itimerspec at = {0};
    if (head) {
        at.it_value.tv_sec = (time_t)(head->due / 1000000000u);
        at.it_value.tv_nsec = (long)(head->due % 1000000000u);
    }
    timerfd_settime(timer, TFD_TIMER_ABSTIME, &at, NULL);
}

static void hang_up(end *e) {  /* both ends of a connection go; their chunks in flight are dropped on delivery */
    end *pair[2] = {e, e->peer};
    for (int i = 0; i < 2; i++) {
        if (pair[i]->closed) continue;
        close(pair[i]->fd);
        pair[i]->closed = 1;
    }
}

static void send_all(end *to, const char *data, size_t len) {
    while (len > 0 && !to->closed) {
        ssize_t n = send(to->fd, data, len, MSG_NOSIGNAL);
        if (n > 0) { data += n; len -= (size_t)n; continue; }
        if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
            struct pollfd p = {to->fd, POLLOUT, 0};
            poll(&p, 1, 1000);
            continue;
        }
        hang_up(to);
    }
}

static void deliver(int timer) {
    uint64_t now = now_ns();
    while (head && head->due <= now) {
        chunk *c = head;
        head = c->next;
        if (!head) tail = NULL;
        if (!c->to->closed) send_all(c->to, c->data, c->len);
        free(c);
    }
    arm(timer);
}

static int take(end *from, int timer) {  /* read what `from` sent and queue it for its peer; 0 when it hung up */
    char buffer[65536];
    ssize_t n = recv(from->fd, buffer, sizeof buffer, 0);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) return 0;
    if (n < 0) return 1;
    chunk *c = malloc(sizeof *c + (size_t)n);
    c->next = NULL; c->to = from->peer; c->due = now_ns() + delay_ns; c->len = (size_t)n;
    memcpy(c->data, buffer, (size_t)n);
    if (tail) tail->next = c; else head = c;
    tail = c;
    if (head == c) arm(timer);  /* the queue was empty: nothing armed the timer */
    return 1;
}

static int listener(int port) {
    int fd = socket(AF_INET, SOCK_STREAM, 0), yes = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    struct sockaddr_in at = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    at.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(fd, (struct sockaddr *)&at, sizeof at) || listen(fd, 512)) { perror("listen"); exit(1); }
    return fd;
}

static int dial(int port) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in at = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    at.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&at, sizeof at)) { close(fd); return -1; }
    return fd;
}

static void watch(int epoll, end *e) {
    int yes = 1;
    setsockopt(e->fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = e};
    epoll_ctl(epoll, EPOLL_CTL_ADD, e->fd, &ev);
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: delay LISTEN_PORT UPSTREAM_PORT DELAY_US\n"); return 2; }
    int upstream = atoi(argv[2]);
    delay_ns = (uint64_t)atoll(argv[3]) * 1000u;
    int accepting = listener(atoi(argv[1]));
    int timer = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK);
    int epoll = epoll_create1(0);
    end on_accept = {.fd = accepting}, on_timer = {.fd = timer};
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = &on_accept};
    epoll_ctl(epoll, EPOLL_CTL_ADD, accepting, &ev);
    ev.data.ptr = &on_timer;
    epoll_ctl(epoll, EPOLL_CTL_ADD, timer, &ev);
    for (;;) {
        struct epoll_event ready[64];
        int n = epoll_wait(epoll, ready, 64, -1);
        for (int i = 0; i < n; i++) {
            end *e = ready[i].data.ptr;
            if (e == &on_timer) {
                uint64_t expirations;
                if (read(timer, &expirations, sizeof expirations) < 0 && errno != EAGAIN) perror("timer");
                deliver(timer);
            } else if (e == &on_accept) {
                int client = accept(accepting, NULL, NULL), server = client < 0 ? -1 : dial(upstream);
                if (server < 0) { if (client >= 0) close(client); continue; }
                end *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
                a->fd = client; b->fd = server; a->peer = b; b->peer = a;
                watch(epoll, a);
                watch(epoll, b);
            } else if (!e->closed && !take(e, timer)) {
                hang_up(e);
            }
        }
    }
}
