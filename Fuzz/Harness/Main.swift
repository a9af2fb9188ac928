import Foundation

/// The libFuzzer entry points. One binary holds every target; `FUZZ_TARGET` picks the one a run
/// exercises (`fuzz.sh` sets it), so CI compiles the sources once instead of once per target.
struct FuzzTarget: Sendable {
  var name: String
  /// Loads what every input needs (the bundled catalog…) once, before the first input.
  var setUp: @Sendable () -> Void = {}
  var run: @Sendable ([UInt8]) -> Void
}

let allTargets: [FuzzTarget] = [
  paywallTarget, catalogTarget, storeKitTarget, templateTarget, audienceTarget, commandLineTarget, controllerTarget, playTarget,
  ledgerTarget, statusTarget, userTarget, notificationsTarget, renderTarget, superwallTarget,
]

nonisolated(unsafe) var selectedTarget: FuzzTarget?

@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
  let name = ProcessInfo.processInfo.environment["FUZZ_TARGET"] ?? ""
  guard let target = allTargets.first(where: { $0.name == name }) else {
    let names = allTargets.map(\.name).joined(separator: " ")
    FileHandle.standardError.write(Data("FUZZ_TARGET must name a target: \(names)\n".utf8))
    exit(2)
  }
  target.setUp()
  selectedTarget = target
  return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  selectedTarget!.run(bytes)
  return 0
}
