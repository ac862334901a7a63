/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mkspecial: create the device nodes and sockets a host fixture tree
 * needs, which git cannot store.  Reads DIR/FIXTURE.nodes, one per line:
 *
 *   sock PATH                   a Unix socket (bound, then left behind)
 *   chr  MAJOR MINOR MODE PATH  a character device (mknod, needs
 *   blk  MAJOR MINOR MODE PATH  CAP_MKNOD) / a block device
 *
 * PATH is inside DIR; an existing node there is replaced.  Nothing is ever
 * opened or read through a node.  Test code, never installed.
 *
 *   mkspecial DIR
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

static int
make_sock(const char *path)
{
	struct sockaddr_un sa;
	int fd;

	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "mkspecial: %s: path too long\n", path);
		return -1;
	}
	strncpy(sa.sun_path, path, sizeof(sa.sun_path) - 1);
	if ((fd = socket(AF_UNIX, SOCK_STREAM, 0)) < 0 ||
	    bind(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		fprintf(stderr, "mkspecial: %s: %s\n", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return chmod(path, 0660);
}

/* mkdir -p of path's parent directories (inside the fixture). */
static int
parents(char *path, size_t skip)
{
	char *p;

	for (p = path + skip + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		if (mkdir(path, 0755) != 0 && errno != EEXIST) {
			*p = '/';
			return -1;
		}
		*p = '/';
	}
	return 0;
}

int
main(int argc, char **argv)
{
	char line[1024], kind[8], rel[512], path[1200], nodes[1200];
	unsigned maj, min, mode;
	unsigned ln = 0;
	FILE *f;
	int bad = 0, r;

	if (argc != 2) {
		fprintf(stderr, "usage: mkspecial DIR\n");
		return 2;
	}
	snprintf(nodes, sizeof(nodes), "%s/FIXTURE.nodes", argv[1]);
	if ((f = fopen(nodes, "r")) == NULL)
		return 0;	/* a fixture without special files */
	while (fgets(line, sizeof(line), f) != NULL) {
		ln++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		maj = min = mode = 0;
		if (sscanf(line, "%7s", kind) != 1 ||
		    (strcmp(kind, "sock") == 0 ?
		    sscanf(line, "%*s %511s", rel) != 1 :
		    sscanf(line, "%*s %u %u %o %511s", &maj, &min, &mode,
		    rel) != 4) || rel[0] != '/' || strstr(rel, "..") != NULL) {
			fprintf(stderr, "mkspecial: %s:%u: bad line\n", nodes,
			    ln);
			bad = 1;
			continue;
		}
		snprintf(path, sizeof(path), "%s%s", argv[1], rel);
		if (parents(path, strlen(argv[1])) != 0 ||
		    (unlink(path) != 0 && errno != ENOENT)) {
			fprintf(stderr, "mkspecial: %s: %s\n", path,
			    strerror(errno));
			bad = 1;
			continue;
		}
		if (strcmp(kind, "sock") == 0)
			r = make_sock(path);
		else if (strcmp(kind, "chr") == 0 || strcmp(kind, "blk") == 0)
			r = mknod(path, (strcmp(kind, "chr") == 0 ? S_IFCHR :
			    S_IFBLK) | (mode & 07777), makedev(maj, min));
		else
			r = -1, errno = EINVAL;
		if (r != 0) {
			fprintf(stderr, "mkspecial: %s: %s\n", path,
			    strerror(errno));
			bad = 1;
		} else if (strcmp(kind, "sock") != 0 &&
		    chmod(path, mode & 07777) != 0) {
			bad = 1;
		}
	}
	fclose(f);
	return bad;
}
