/*
 * symbols/vdso.c - this process's own vdso as a file, for a recording's
 * [vdso] when perf's build-id cache has no copy of it: the kernel maps the
 * same image into every process, so ours is the recorded one whenever the
 * build ids agree (the loader checks them where the recording gave one).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#include "symbols/dso.h"

/* The size of the ELF image at @e: the end of its section headers or of
 * its last segment, whichever is further (the vdso is one image). */
static size_t image_size(const unsigned char *e)
{
	uint64_t shoff, phoff, end;
	uint16_t shentsize, shnum, phentsize, phnum;

	if (memcmp(e, "\177ELF", 4) || e[4] != 2) /* 64-bit only: every vdso peo runs beside */
		return 0;
	memcpy(&phoff, e + 32, 8);
	memcpy(&shoff, e + 40, 8);
	memcpy(&phentsize, e + 54, 2);
	memcpy(&phnum, e + 56, 2);
	memcpy(&shentsize, e + 58, 2);
	memcpy(&shnum, e + 60, 2);
	end = shoff + (uint64_t)shentsize * shnum;
	for (uint16_t i = 0; i < phnum; i++) {
		const unsigned char *ph = e + phoff + (size_t)i * phentsize;
		uint64_t off, filesz;

		memcpy(&off, ph + 8, 8);
		memcpy(&filesz, ph + 32, 8);
		if (off + filesz > end)
			end = off + filesz;
	}
	return end < (64u << 20) ? (size_t)end : 0;
}

int sym_vdso_load(const struct sym_load *how, struct sym_binary *out)
{
	const unsigned char *image = (const unsigned char *)getauxval(AT_SYSINFO_EHDR);
	struct sym_load mine = *how;
	char path[64];
	size_t size = image ? image_size(image) : 0;
	int fd, err;

	if (!size)
		return peo_fail(ENOENT, "[vdso]: perf's build-id cache has no copy of it, and this "
				"process has no vdso to read in its place");
	fd = memfd_create("vdso", MFD_CLOEXEC);
	if (fd < 0)
		return peo_fail(errno, "[vdso]: memfd_create: %s", strerror(errno));
	if (write(fd, image, size) != (ssize_t)size) {
		err = peo_fail(EIO, "[vdso]: writing a copy of this process's: %s", strerror(errno));
		close(fd);
		return err;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	mine.path = path;
	mine.symfs = NULL;
	err = sym_binary_load(&mine, out);
	close(fd);
	return err;
}
