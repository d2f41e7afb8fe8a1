// epoll(7) for dynbench's frame receiver (Glibc's Swift module does not include it).
#include <sys/epoll.h>
