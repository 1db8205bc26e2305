/* Replays fuzz inputs (files, or every file in a directory) through a fuzz target's
 * LLVMFuzzerTestOneInput without libFuzzer, so that any compiler can run the seed corpus as a
 * plain test (CTest: fuzz_corpus_<op>). Prints one closing line with the count. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static size_t replayed = 0;

static void replay_file(const char* path) {
  FILE* f = fopen(path, "rb");
  if (!f) {
    perror(path);
    exit(2);
  }
  uint8_t buf[1 << 16];
  size_t n = fread(buf, 1, sizeof buf, f);
  fclose(f);
  uint8_t* exact = malloc(n ? n : 1); /* its own block, as libFuzzer passes it */
  memcpy(exact, buf, n);
  LLVMFuzzerTestOneInput(exact, n);
  free(exact);
  replayed++;
}

static void replay(const char* path) {
  struct stat st;
  if (stat(path, &st) != 0) {
    perror(path);
    exit(2);
  }
  if (!S_ISDIR(st.st_mode)) {
    replay_file(path);
    return;
  }
  DIR* dir = opendir(path);
  struct dirent* e;
  while (dir && (e = readdir(dir)) != NULL) {
    if (e->d_name[0] == '.') continue;
    char child[4096];
    snprintf(child, sizeof child, "%s/%s", path, e->d_name);
    replay(child);
  }
  if (dir) closedir(dir);
}

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) replay(argv[i]);
  printf("replayed %zu inputs, no failure\n", replayed);
  return replayed == 0; /* an empty corpus is a mistake */
}
