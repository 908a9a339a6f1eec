/* Peak resident memory of a command, uncontaminated by the process that starts it:
 *
 *   peak_rss OUT_FILE COMMAND [ARGS...]
 *
 * Runs COMMAND (stdin, stdout and stderr inherited), writes its peak RSS in KiB to OUT_FILE and
 * exits with its exit status (128 + signal when killed). Why not wait4 from bench.py itself:
 * Linux keeps a process's high-water mark across exec, so a child forked from a Python process
 * of tens of MiB reports at least that much whatever it runs. Forked from this small program, the
 * command's ru_maxrss is its own plus at most this program's few hundred KiB. bench.py compiles
 * it (cc is in build-essential) like bandwidth.c. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s OUT_FILE COMMAND [ARGS...]\n", argv[0]);
    return 2;
  }
  pid_t pid = fork();
  if (pid < 0) {
    perror("peak_rss: fork");
    return 127;
  }
  if (pid == 0) {
    execvp(argv[2], argv + 2);
    perror("peak_rss: exec");
    _exit(127);
  }
  int status = 0;
  struct rusage usage;
  if (wait4(pid, &status, 0, &usage) < 0) {
    perror("peak_rss: wait4");
    return 127;
  }
  FILE* out = fopen(argv[1], "w");
  if (out == NULL || fprintf(out, "%ld\n", usage.ru_maxrss) < 0 || fclose(out) != 0) {
    perror("peak_rss: writing the result");
    return 127;
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}
