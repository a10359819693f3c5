// Exposes SQLite (pkg-config sqlite3) to the benchmarks, which compare the
// journal's group commit with SQLite doing the same inserts.
#include <sqlite3.h>
