/*
 * Runs a program under a seccomp filter made as systemd makes a unit's
 * SystemCallFilter=: the system calls named in a file (one a line)
 * are allowed, any other kills the process with SIGSYS, and so does a call
 * made through another architecture's ABI (SystemCallArchitectures=native).
 * Names this architecture does not know are passed over, as systemd does.
 * Started as root, it first becomes USER-ID (user and group), as User= and
 * Group= do: some libraries act differently as root (SQLite gives its
 * journal the database's owner with fchown, which the unit forbids).
 *
 *   seccomp-run ALLOWED-SYSCALLS-FILE USER-ID|- PROGRAM [ARGUMENT...]
 */
#include <errno.h>
#include <grp.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: seccomp-run ALLOWED-SYSCALLS-FILE USER-ID|- PROGRAM [ARGUMENT...]\n");
    return 2;
  }
  FILE *names = fopen(argv[1], "r");
  if (names == NULL) {
    fprintf(stderr, "seccomp-run: cannot read %s: %s\n", argv[1], strerror(errno));
    return 2;
  }
  scmp_filter_ctx filter = seccomp_init(SCMP_ACT_KILL_PROCESS);
  if (filter == NULL) return 2;
  /* Only the native ABI is in the filter; any other is the bad-arch action. */
  if (seccomp_attr_set(filter, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS) != 0) return 2;
  char name[128];
  while (fgets(name, sizeof name, names) != NULL) {
    name[strcspn(name, "\n")] = '\0';
    int number = seccomp_syscall_resolve_name(name);
    if (name[0] == '\0' || number == __NR_SCMP_ERROR) continue;
    int status = seccomp_rule_add(filter, SCMP_ACT_ALLOW, number, 0);
    if (status != 0) {
      fprintf(stderr, "seccomp-run: cannot allow %s: %s\n", name, strerror(-status));
      return 2;
    }
  }
  fclose(names);
  if (strcmp(argv[2], "-") != 0) {
    unsigned id = (unsigned)strtoul(argv[2], NULL, 10);
    if (setgroups(0, NULL) != 0 || setgid(id) != 0 || setuid(id) != 0) {
      fprintf(stderr, "seccomp-run: cannot become user %u: %s\n", id, strerror(errno));
      return 2;
    }
  }
  if (seccomp_load(filter) != 0) {
    fprintf(stderr, "seccomp-run: cannot load the filter\n");
    return 2;
  }
  seccomp_release(filter);
  execvp(argv[3], argv + 3);
  fprintf(stderr, "seccomp-run: cannot run %s: %s\n", argv[3], strerror(errno));
  return 127;
}
