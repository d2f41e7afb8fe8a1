#ifndef CLIBEVENT_SHIM_H
#define CLIBEVENT_SHIM_H
#include <event2/event.h>
#include <event2/listener.h>
#include <event2/bufferevent.h>
#include <event2/buffer.h>
#include <event2/util.h>
#include <sys/socket.h>
#include <sys/un.h>
#endif
