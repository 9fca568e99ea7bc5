/*
 * sym_jit.c - a tiny JIT for tests/sym_jit_compare.sh: it writes a
 * counting loop into anonymous executable memory, names it in
 * /tmp/perf-PID.map as JITs do for perf, and runs it for about a second of
 * CPU time.  x86_64 and aarch64; elsewhere it exits 77.  Run as
 * "sym_jit [NAME]": the function's name in the map (jitted_spin_loop).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__)
static const unsigned char code[] = { 0x48, 0xff, 0xcf, 0x75, 0xfb, 0xc3 }; /* dec rdi; jnz; ret */
#elif defined(__aarch64__)
static const uint32_t code[] = { 0xf1000400, 0x54ffffe1, 0xd65f03c0 }; /* subs x0; b.ne; ret */
#endif

int main(int argc, char **argv)
{
#if defined(__x86_64__) || defined(__aarch64__)
	unsigned char *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	void (*spin)(long);
	char path[64];
	FILE *f;

	if (m == MAP_FAILED) {
		perror("sym_jit: mmap of executable memory");
		return 77;
	}
	memcpy(m + 64, code, sizeof(code));
	__builtin___clear_cache((char *)m + 64, (char *)m + 64 + sizeof(code));
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	if (!(f = fopen(path, "w")))
		return 1;
	fprintf(f, "%lx %zx %s\n", (unsigned long)(uintptr_t)(m + 64), sizeof(code),
		argc > 1 ? argv[1] : "jitted_spin_loop");
	fclose(f);
	spin = (void (*)(long))(void *)(m + 64);
	for (clock_t end = clock() + CLOCKS_PER_SEC; clock() < end;)
		spin(1000000);
	return 0;
#else
	(void)argc, (void)argv;
	fprintf(stderr, "sym_jit: no code written for this architecture\n");
	return 77;
#endif
}
