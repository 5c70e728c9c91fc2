// Counts heap allocations of a program, for the benchmark suite: preload it and name a report file.
//   cc -O2 -shared -fPIC -o count-allocations.so scripts/bench/count-allocations.c
//   PREWARM_LINT_ALLOCATION_REPORT=/tmp/a LD_PRELOAD=$PWD/count-allocations.so prewarm-lint …
// Each allocating entry point (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign) is
// counted with the bytes asked for, then handed to glibc's own implementation (__libc_*), so no
// dlsym bootstrapping is needed. At exit the totals are written to the report file as
// "allocations N bytes M frees F".
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static atomic_ullong allocations, bytes, frees;

static void count(size_t size) {
  atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
  atomic_fetch_add_explicit(&bytes, size, memory_order_relaxed);
}

void *malloc(size_t size) { count(size); return __libc_malloc(size); }
void *calloc(size_t n, size_t size) { count(n * size); return __libc_calloc(n, size); }
void *realloc(void *pointer, size_t size) { count(size); return __libc_realloc(pointer, size); }
void *memalign(size_t alignment, size_t size) { count(size); return __libc_memalign(alignment, size); }
void *aligned_alloc(size_t alignment, size_t size) { count(size); return __libc_memalign(alignment, size); }
int posix_memalign(void **out, size_t alignment, size_t size) {
  count(size);
  void *pointer = __libc_memalign(alignment, size);
  if (!pointer) return ENOMEM;
  *out = pointer;
  return 0;
}
void free(void *pointer) {
  if (pointer) atomic_fetch_add_explicit(&frees, 1, memory_order_relaxed);
  __libc_free(pointer);
}

__attribute__((destructor)) static void report(void) {
  const char *path = getenv("PREWARM_LINT_ALLOCATION_REPORT");
  if (!path) return;
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return;
  char line[128];
  int length = snprintf(line, sizeof line, "allocations %llu bytes %llu frees %llu\n",
                        (unsigned long long)allocations, (unsigned long long)bytes, (unsigned long long)frees);
  if (length > 0) write(fd, line, (size_t)length);
  close(fd);
}
