#ifndef CLIBEVENT_SHIM_H
#define CLIBEVENT_SHIM_H
/* System headers first: Debian's event2/event-config.h defines _GNU_SOURCE, and if libevent came
 * first sys/select.h would be parsed here with other feature macros than in Swift's Glibc
 * module, so a clean build fails with "'fd_set' ... not present in definition". */
#include <sys/types.h>
#include <sys/time.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <event2/event.h>
#include <event2/listener.h>
#include <event2/bufferevent.h>
#include <event2/buffer.h>
#include <event2/util.h>
#endif
