/* Functions compiled once per instruction set, the loader picking one
 * for the machine (GNU ifunc); their results are exact either way. */
#ifndef TWZ_TARGET_CLONES_H
#define TWZ_TARGET_CLONES_H

/* Not under a sanitizer: the load-time resolver runs before the
 * sanitizer's runtime is up, and ThreadSanitizer's instrumentation of it
 * crashes the program before main. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && \
	defined(__linux__) && defined(__ELF__) && \
	!defined(__SANITIZE_THREAD__) && !defined(__SANITIZE_ADDRESS__)
#define TWZ_TARGET_CLONES(...) __attribute__((target_clones(__VA_ARGS__)))
#else
#define TWZ_TARGET_CLONES(...)
#endif

#endif
