// Exposes libpq, PostgreSQL's C client (pkg-config libpq), to Swift.
#include <libpq-fe.h>
