// A read-only FUSE file system over a folder that injects faults, for the fault suite
// (tests/integration/test_faults.sh): reads of a file (matched by a part of its path) that
// cover an offset hang until the mount is aborted, fail with EIO, come back short, or are slowed.
// With a hangw rule the file system is writable (a pass-through) and writes of a matching file
// that cover the offset hang instead (a hung server under datagen). hangdir and hangstat hang the
// metadata calls of a matching path: its folder listing (readdir) or its attributes (the lookup
// and getattr behind stat), as a hung NFS server does under a scan (dlsize index).
//
//   dlsize_fault_fs SOURCE MOUNTPOINT [RULE...]
//   RULE: hang:NAME:OFFSET  eio:NAME:OFFSET  short:NAME  slow:NAME:MILLISECONDS
//         hangw:NAME:OFFSET  hangdir:NAME  hangstat:NAME
//
// It runs in the foreground; release it with `fusermount3 -u MOUNTPOINT`, or, when a read hangs,
// by writing 1 to /sys/fs/fuse/connections/N/abort (N: the minor device number of the mount).
#define _GNU_SOURCE
#define FUSE_USE_VERSION 31
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

enum kind { HANG, EIO_AT, SHORT, SLOW, HANG_WRITE, HANG_DIR, HANG_STAT };
struct rule {
  enum kind kind;
  char name[256];
  long long value; // offset (hang, eio) or milliseconds (slow)
};

static char g_source[4096];
static struct rule g_rules[32];
static int g_nrules;
static int g_writable; // a hangw rule was given: writes pass through

static void real_path(char* out, size_t n, const char* path) {
  snprintf(out, n, "%s%s", g_source, path);
}

// A metadata call of a path that a rule of this kind matches never returns.
static void hang_if(enum kind kind, const char* path) {
  for (int i = 0; i < g_nrules; ++i)
    if (g_rules[i].kind == kind && strstr(path, g_rules[i].name))
      for (;;)
        pause(); // until the mount is aborted and this process ends
}

static int ff_getattr(const char* path, struct stat* st, struct fuse_file_info* fi) {
  (void)fi;
  hang_if(HANG_STAT, path);
  char p[8192];
  real_path(p, sizeof p, path);
  return lstat(p, st) == 0 ? 0 : -errno;
}

static int ff_readdir(const char* path, void* buf, fuse_fill_dir_t fill, off_t off,
                      struct fuse_file_info* fi, enum fuse_readdir_flags flags) {
  (void)off;
  (void)fi;
  (void)flags;
  hang_if(HANG_DIR, path);
  char p[8192];
  real_path(p, sizeof p, path);
  DIR* d = opendir(p);
  if (!d)
    return -errno;
  struct dirent* e;
  while ((e = readdir(d)))
    fill(buf, e->d_name, NULL, 0, 0);
  closedir(d);
  return 0;
}

static int ff_open(const char* path, struct fuse_file_info* fi) {
  if ((fi->flags & O_ACCMODE) != O_RDONLY && !g_writable)
    return -EROFS;
  char p[8192];
  real_path(p, sizeof p, path);
  const int fd = open(p, g_writable ? (fi->flags & ~O_DIRECT) : O_RDONLY);
  if (fd < 0)
    return -errno;
  fi->fh = (unsigned long long)fd;
  fi->direct_io = 1; // every read reaches this file system: no page cache in between
  return 0;
}

static int ff_release(const char* path, struct fuse_file_info* fi) {
  (void)path;
  close((int)fi->fh);
  return 0;
}

static int ff_read(const char* path, char* buf, size_t size, off_t off,
                   struct fuse_file_info* fi) {
  size_t want = size;
  for (int i = 0; i < g_nrules; ++i) {
    const struct rule* r = &g_rules[i];
    if (!strstr(path, r->name))
      continue;
    const int covers = r->value >= off && r->value < off + (long long)size;
    if (r->kind == HANG && covers)
      for (;;)
        pause(); // until the mount is aborted and this process ends
    if (r->kind == EIO_AT && covers)
      return -EIO;
    if (r->kind == SHORT && size > 4096)
      want = size / 2;
    if (r->kind == SLOW) {
      struct timespec ts = {r->value / 1000, (r->value % 1000) * 1000000L};
      nanosleep(&ts, NULL);
    }
  }
  const ssize_t n = pread((int)fi->fh, buf, want, off);
  return n < 0 ? -errno : (int)n;
}

// The writable pass-through, for hangw rules.
static int ff_create(const char* path, mode_t mode, struct fuse_file_info* fi) {
  char p[8192];
  real_path(p, sizeof p, path);
  const int fd = open(p, (fi->flags & ~O_DIRECT) | O_CREAT, mode);
  if (fd < 0)
    return -errno;
  fi->fh = (unsigned long long)fd;
  fi->direct_io = 1; // every write reaches this file system, where a rule may hang it
  return 0;
}

static int ff_write(const char* path, const char* buf, size_t size, off_t off,
                    struct fuse_file_info* fi) {
  for (int i = 0; i < g_nrules; ++i) {
    const struct rule* r = &g_rules[i];
    if (r->kind == HANG_WRITE && strstr(path, r->name) && r->value >= off &&
        r->value < off + (long long)size)
      for (;;)
        pause(); // until the mount is aborted and this process ends
  }
  const ssize_t n = pwrite((int)fi->fh, buf, size, off);
  return n < 0 ? -errno : (int)n;
}

#define REAL(var, path)                                                                            \
  char var[8192];                                                                                  \
  real_path(var, sizeof var, path)

static int ff_fsync(const char* path, int datasync, struct fuse_file_info* fi) {
  (void)path;
  return (datasync ? fdatasync((int)fi->fh) : fsync((int)fi->fh)) == 0 ? 0 : -errno;
}
static int ff_truncate(const char* path, off_t size, struct fuse_file_info* fi) {
  (void)fi;
  REAL(p, path);
  return truncate(p, size) == 0 ? 0 : -errno;
}
static int ff_chmod(const char* path, mode_t mode, struct fuse_file_info* fi) {
  (void)fi;
  REAL(p, path);
  return chmod(p, mode) == 0 ? 0 : -errno;
}
static int ff_utimens(const char* path, const struct timespec tv[2], struct fuse_file_info* fi) {
  (void)fi;
  REAL(p, path);
  return utimensat(AT_FDCWD, p, tv, AT_SYMLINK_NOFOLLOW) == 0 ? 0 : -errno;
}
static int ff_mkdir(const char* path, mode_t mode) {
  REAL(p, path);
  return mkdir(p, mode) == 0 ? 0 : -errno;
}
static int ff_rmdir(const char* path) {
  REAL(p, path);
  return rmdir(p) == 0 ? 0 : -errno;
}
static int ff_unlink(const char* path) {
  REAL(p, path);
  return unlink(p) == 0 ? 0 : -errno;
}
static int ff_rename(const char* from, const char* to, unsigned int flags) {
  if (flags)
    return -EINVAL; // RENAME_NOREPLACE and friends: callers fall back to link
  REAL(a, from);
  REAL(b, to);
  return rename(a, b) == 0 ? 0 : -errno;
}
static int ff_link(const char* from, const char* to) {
  REAL(a, from);
  REAL(b, to);
  return link(a, b) == 0 ? 0 : -errno;
}
static int ff_statfs(const char* path, struct statvfs* st) {
  REAL(p, path);
  return statvfs(p, st) == 0 ? 0 : -errno;
}

// use_ino: the source's inode numbers, stable for as long as the mount (an index lists them).
static void* ff_init(struct fuse_conn_info* conn, struct fuse_config* cfg) {
  (void)conn;
  cfg->use_ino = 1;
  return NULL;
}

static const struct fuse_operations g_write_ops = {
    .init = ff_init,
    .getattr = ff_getattr,
    .readdir = ff_readdir,
    .open = ff_open,
    .release = ff_release,
    .read = ff_read,
    .create = ff_create,
    .write = ff_write,
    .fsync = ff_fsync,
    .truncate = ff_truncate,
    .chmod = ff_chmod,
    .utimens = ff_utimens,
    .mkdir = ff_mkdir,
    .rmdir = ff_rmdir,
    .unlink = ff_unlink,
    .rename = ff_rename,
    .link = ff_link,
    .statfs = ff_statfs,
};

static const struct fuse_operations g_ops = {
    .init = ff_init,
    .getattr = ff_getattr,
    .readdir = ff_readdir,
    .open = ff_open,
    .release = ff_release,
    .read = ff_read,
};

static int parse_rule(const char* text, struct rule* r) {
  char kind[16] = {0};
  long long value = 0;
  const char* colon = strchr(text, ':');
  if (!colon || colon - text >= (long)sizeof kind)
    return -1;
  memcpy(kind, text, (size_t)(colon - text));
  const char* name = colon + 1;
  const char* last = strrchr(name, ':');
  size_t name_len = strlen(name);
  if (strcmp(kind, "short") != 0 && strcmp(kind, "hangdir") != 0 && strcmp(kind, "hangstat") != 0) {
    if (!last)
      return -1;
    value = atoll(last + 1);
    name_len = (size_t)(last - name);
  }
  if (name_len == 0 || name_len >= sizeof r->name)
    return -1;
  memcpy(r->name, name, name_len);
  r->name[name_len] = '\0';
  r->value = value;
  if (!strcmp(kind, "hang"))
    r->kind = HANG;
  else if (!strcmp(kind, "hangw"))
    r->kind = HANG_WRITE;
  else if (!strcmp(kind, "eio"))
    r->kind = EIO_AT;
  else if (!strcmp(kind, "short"))
    r->kind = SHORT;
  else if (!strcmp(kind, "slow"))
    r->kind = SLOW;
  else if (!strcmp(kind, "hangdir"))
    r->kind = HANG_DIR;
  else if (!strcmp(kind, "hangstat"))
    r->kind = HANG_STAT;
  else
    return -1;
  return 0;
}

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s SOURCE MOUNTPOINT [hang:NAME:OFFSET | eio:NAME:OFFSET | "
                    "short:NAME | slow:NAME:MS | hangw:NAME:OFFSET | hangdir:NAME | hangstat:NAME ...]\n",
            argv[0]);
    return 2;
  }
  if (!realpath(argv[1], g_source)) {
    perror(argv[1]);
    return 2;
  }
  for (int i = 3; i < argc && g_nrules < 32; ++i)
    if (parse_rule(argv[i], &g_rules[g_nrules++]) != 0) {
      fprintf(stderr, "%s: bad rule '%s'\n", argv[0], argv[i]);
      return 2;
    }
  for (int i = 0; i < g_nrules; ++i)
    g_writable |= g_rules[i].kind == HANG_WRITE;
  char* fargv[] = {argv[0], argv[2], "-f", "-o", g_writable ? "rw" : "ro", NULL};
  return fuse_main(5, fargv, g_writable ? &g_write_ops : &g_ops, NULL);
}
