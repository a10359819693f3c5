// libpq, PostgreSQL's C client, as the head office uses it: its header for the
// types, and for each function it calls, that function's pointer type taken
// from its own prototype (`__typeof__`), so the declarations cannot drift from
// the header. Nothing here links libpq: the module map has no `link`, and the
// head office loads libpq with dlopen when it first connects (LibPQ.swift), so
// no binary carries libpq and its TLS, Kerberos and LDAP stack on every start.
#if __has_include(<libpq-fe.h>)
#include <libpq-fe.h>
#elif __has_include(<postgresql/libpq-fe.h>)
#include <postgresql/libpq-fe.h>
#else
#error "libpq's header libpq-fe.h was not found: install libpq-dev ('make setup' does)"
#endif

typedef __typeof__(PQconnectdb) *PQconnectdbFunction;
typedef __typeof__(PQstatus) *PQstatusFunction;
typedef __typeof__(PQerrorMessage) *PQerrorMessageFunction;
typedef __typeof__(PQfinish) *PQfinishFunction;
typedef __typeof__(PQexecParams) *PQexecParamsFunction;
typedef __typeof__(PQexec) *PQexecFunction;
typedef __typeof__(PQresultStatus) *PQresultStatusFunction;
typedef __typeof__(PQresultErrorMessage) *PQresultErrorMessageFunction;
typedef __typeof__(PQresultErrorField) *PQresultErrorFieldFunction;
typedef __typeof__(PQclear) *PQclearFunction;
typedef __typeof__(PQntuples) *PQntuplesFunction;
typedef __typeof__(PQnfields) *PQnfieldsFunction;
typedef __typeof__(PQgetisnull) *PQgetisnullFunction;
typedef __typeof__(PQgetvalue) *PQgetvalueFunction;
typedef __typeof__(PQputCopyData) *PQputCopyDataFunction;
typedef __typeof__(PQputCopyEnd) *PQputCopyEndFunction;
typedef __typeof__(PQgetResult) *PQgetResultFunction;
// Non-blocking statements with a deadline, and the cancel request sent when it expires.
typedef __typeof__(PQconnectdbParams) *PQconnectdbParamsFunction;
typedef __typeof__(PQsetnonblocking) *PQsetnonblockingFunction;
typedef __typeof__(PQsendQueryParams) *PQsendQueryParamsFunction;
typedef __typeof__(PQflush) *PQflushFunction;
typedef __typeof__(PQisBusy) *PQisBusyFunction;
typedef __typeof__(PQconsumeInput) *PQconsumeInputFunction;
typedef __typeof__(PQsocket) *PQsocketFunction;
typedef __typeof__(PQgetCancel) *PQgetCancelFunction;
typedef __typeof__(PQcancel) *PQcancelFunction;
typedef __typeof__(PQfreeCancel) *PQfreeCancelFunction;
// The connection string read before connecting, and the server's notices kept, not printed.
typedef __typeof__(PQconninfoParse) *PQconninfoParseFunction;
typedef __typeof__(PQconninfoFree) *PQconninfoFreeFunction;
typedef __typeof__(PQfreemem) *PQfreememFunction;
typedef __typeof__(PQsetNoticeProcessor) *PQsetNoticeProcessorFunction;
