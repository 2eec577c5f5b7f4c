/*
 * Runs a program under a seccomp filter made as systemd makes a unit's
 * SystemCallFilter=: the system calls named in a file (one a line)
 * are allowed, any other kills the process with SIGSYS, and so does a call
 * made through another architecture's ABI (SystemCallArchitectures=native).
 * Names this architecture does not know are passed over, as systemd does.
 *
 *   seccomp-run ALLOWED-SYSCALLS-FILE PROGRAM [ARGUMENT...]
 */
#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: seccomp-run ALLOWED-SYSCALLS-FILE PROGRAM [ARGUMENT...]\n");
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
  if (seccomp_load(filter) != 0) {
    fprintf(stderr, "seccomp-run: cannot load the filter\n");
    return 2;
  }
  seccomp_release(filter);
  execvp(argv[2], argv + 2);
  fprintf(stderr, "seccomp-run: cannot run %s: %s\n", argv[2], strerror(errno));
  return 127;
}
