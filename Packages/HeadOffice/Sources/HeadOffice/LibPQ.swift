import CLibPQ

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// libpq's functions, loaded with `dlopen` the first time a connection is made:
/// only `kiosk sync` and `kiosk-hq` ever connect, so no other command loads
/// libpq and the TLS, Kerberos, LDAP and SASL libraries it brings (docs/head-office.md).
/// Each pointer has the type of its function's own prototype (CLibPQ's shim.h).
struct LibPQ: @unchecked Sendable {
  // A function pointer is immutable and libpq's functions may be called from any
  // thread on distinct connections: nothing here needs isolation.
  let connectdb: PQconnectdbFunction
  let status: PQstatusFunction
  let errorMessage: PQerrorMessageFunction
  let finish: PQfinishFunction
  let execParams: PQexecParamsFunction
  let exec: PQexecFunction
  let resultStatus: PQresultStatusFunction
  let resultErrorMessage: PQresultErrorMessageFunction
  let resultErrorField: PQresultErrorFieldFunction
  let clear: PQclearFunction
  let ntuples: PQntuplesFunction
  let nfields: PQnfieldsFunction
  let getisnull: PQgetisnullFunction
  let getvalue: PQgetvalueFunction
  let putCopyData: PQputCopyDataFunction
  let putCopyEnd: PQputCopyEndFunction
  let getResult: PQgetResultFunction
  let connectdbParams: PQconnectdbParamsFunction
  let setnonblocking: PQsetnonblockingFunction
  let sendQueryParams: PQsendQueryParamsFunction
  let flush: PQflushFunction
  let isBusy: PQisBusyFunction
  let consumeInput: PQconsumeInputFunction
  let socket: PQsocketFunction
  let getCancel: PQgetCancelFunction
  let cancel: PQcancelFunction
  let freeCancel: PQfreeCancelFunction
  let conninfoParse: PQconninfoParseFunction
  let conninfoFree: PQconninfoFreeFunction
  let freemem: PQfreememFunction
  let setNoticeProcessor: PQsetNoticeProcessorFunction

  /// The library names tried, in order: the ABI this code was written for, then the development link.
  static let names = ["libpq.so.5", "libpq.so", "libpq.5.dylib", "libpq.dylib"]

  /// libpq, loaded once per process; or why it could not be.
  static let shared: Result<LibPQ, PostgresConnection.Failure> = load(names)

  /// Whether this process has loaded libpq (a test of the lazy load asks).
  static var isLoaded: Bool {
    names.contains { name in
      guard let handle = dlopen(name, RTLD_NOW | RTLD_NOLOAD) else { return false }
      dlclose(handle)
      return true
    }
  }

  /// Opens the first of `names` that loads and finds every function in it.
  static func load(_ names: [String]) -> Result<LibPQ, PostgresConnection.Failure> {
    var reasons: [String] = []
    for name in names {
      guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
        reasons.append(dlerror().map { String(cString: $0) } ?? "\(name): not found")
        continue
      }
      var missing: [String] = []
      func function<F>(_ symbol: String, as type: F.Type) -> F? {
        guard let address = dlsym(handle, symbol) else {
          missing.append(symbol)
          return nil
        }
        return unsafeBitCast(address, to: type)
      }
      let library = LibPQ(
        connectdb: function("PQconnectdb", as: PQconnectdbFunction.self),
        status: function("PQstatus", as: PQstatusFunction.self),
        errorMessage: function("PQerrorMessage", as: PQerrorMessageFunction.self),
        finish: function("PQfinish", as: PQfinishFunction.self),
        execParams: function("PQexecParams", as: PQexecParamsFunction.self),
        exec: function("PQexec", as: PQexecFunction.self),
        resultStatus: function("PQresultStatus", as: PQresultStatusFunction.self),
        resultErrorMessage: function("PQresultErrorMessage", as: PQresultErrorMessageFunction.self),
        resultErrorField: function("PQresultErrorField", as: PQresultErrorFieldFunction.self),
        clear: function("PQclear", as: PQclearFunction.self),
        ntuples: function("PQntuples", as: PQntuplesFunction.self),
        nfields: function("PQnfields", as: PQnfieldsFunction.self),
        getisnull: function("PQgetisnull", as: PQgetisnullFunction.self),
        getvalue: function("PQgetvalue", as: PQgetvalueFunction.self),
        putCopyData: function("PQputCopyData", as: PQputCopyDataFunction.self),
        putCopyEnd: function("PQputCopyEnd", as: PQputCopyEndFunction.self),
        getResult: function("PQgetResult", as: PQgetResultFunction.self),
        connectdbParams: function("PQconnectdbParams", as: PQconnectdbParamsFunction.self),
        setnonblocking: function("PQsetnonblocking", as: PQsetnonblockingFunction.self),
        sendQueryParams: function("PQsendQueryParams", as: PQsendQueryParamsFunction.self),
        flush: function("PQflush", as: PQflushFunction.self),
        isBusy: function("PQisBusy", as: PQisBusyFunction.self),
        consumeInput: function("PQconsumeInput", as: PQconsumeInputFunction.self),
        socket: function("PQsocket", as: PQsocketFunction.self),
        getCancel: function("PQgetCancel", as: PQgetCancelFunction.self),
        cancel: function("PQcancel", as: PQcancelFunction.self),
        freeCancel: function("PQfreeCancel", as: PQfreeCancelFunction.self),
        conninfoParse: function("PQconninfoParse", as: PQconninfoParseFunction.self),
        conninfoFree: function("PQconninfoFree", as: PQconninfoFreeFunction.self),
        freemem: function("PQfreemem", as: PQfreememFunction.self),
        setNoticeProcessor: function("PQsetNoticeProcessor", as: PQsetNoticeProcessorFunction.self))
      if let library { return .success(library) }
      reasons.append("\(name) lacks \(missing.joined(separator: ", "))")
      dlclose(handle)
    }
    return .failure(
      PostgresConnection.Failure(
        message: "libpq, PostgreSQL's client library, could not be loaded (install libpq5): "
          + reasons.joined(separator: "; "),
        state: nil))
  }
}

extension LibPQ {
  /// A memberwise initializer that is nil when any function is missing.
  fileprivate init?(
    connectdb: PQconnectdbFunction?, status: PQstatusFunction?, errorMessage: PQerrorMessageFunction?,
    finish: PQfinishFunction?, execParams: PQexecParamsFunction?, exec: PQexecFunction?,
    resultStatus: PQresultStatusFunction?, resultErrorMessage: PQresultErrorMessageFunction?,
    resultErrorField: PQresultErrorFieldFunction?, clear: PQclearFunction?, ntuples: PQntuplesFunction?,
    nfields: PQnfieldsFunction?, getisnull: PQgetisnullFunction?, getvalue: PQgetvalueFunction?,
    putCopyData: PQputCopyDataFunction?, putCopyEnd: PQputCopyEndFunction?, getResult: PQgetResultFunction?,
    connectdbParams: PQconnectdbParamsFunction?, setnonblocking: PQsetnonblockingFunction?,
    sendQueryParams: PQsendQueryParamsFunction?, flush: PQflushFunction?, isBusy: PQisBusyFunction?,
    consumeInput: PQconsumeInputFunction?, socket: PQsocketFunction?, getCancel: PQgetCancelFunction?,
    cancel: PQcancelFunction?, freeCancel: PQfreeCancelFunction?, conninfoParse: PQconninfoParseFunction?,
    conninfoFree: PQconninfoFreeFunction?, freemem: PQfreememFunction?,
    setNoticeProcessor: PQsetNoticeProcessorFunction?
  ) {
    guard let connectdb, let status, let errorMessage, let finish, let execParams, let exec, let resultStatus,
      let resultErrorMessage, let resultErrorField, let clear, let ntuples, let nfields, let getisnull, let getvalue,
      let putCopyData, let putCopyEnd, let getResult, let connectdbParams, let setnonblocking, let sendQueryParams,
      let flush, let isBusy, let consumeInput, let socket, let getCancel, let cancel, let freeCancel,
      let conninfoParse, let conninfoFree, let freemem, let setNoticeProcessor
    else { return nil }
    self.init(
      connectdb: connectdb, status: status, errorMessage: errorMessage, finish: finish, execParams: execParams,
      exec: exec, resultStatus: resultStatus, resultErrorMessage: resultErrorMessage,
      resultErrorField: resultErrorField, clear: clear, ntuples: ntuples, nfields: nfields, getisnull: getisnull,
      getvalue: getvalue, putCopyData: putCopyData, putCopyEnd: putCopyEnd, getResult: getResult,
      connectdbParams: connectdbParams, setnonblocking: setnonblocking, sendQueryParams: sendQueryParams, flush: flush,
      isBusy: isBusy, consumeInput: consumeInput, socket: socket, getCancel: getCancel, cancel: cancel,
      freeCancel: freeCancel, conninfoParse: conninfoParse, conninfoFree: conninfoFree, freemem: freemem,
      setNoticeProcessor: setNoticeProcessor)
  }
}
