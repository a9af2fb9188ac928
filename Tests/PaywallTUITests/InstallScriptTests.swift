import Foundation
import PaywallTesting
import Testing

/// scripts/install.sh, which the composite action (action.yml) runs: it installs the release
/// binary for this machine only when the release's SHA256SUMS vouches for it, finds the newest
/// release under vN.M, and never builds this tree under another version's name. The releases are
/// a folder here (PAYWALL_TUI_RELEASES=file://…), laid out as GitHub serves them.
@Suite("scripts/install.sh")
struct InstallScriptTests {
  static var asset: String? {
    var name = utsname()
    uname(&name)
    let machine = withUnsafeBytes(of: name.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    #if os(Linux)
    return machine == "x86_64" ? "paywall-tui-linux-x86_64" : machine == "aarch64" ? "paywall-tui-linux-aarch64" : nil
    #else
    return machine == "arm64" ? "paywall-tui-macos-arm64" : nil
    #endif
  }

  /// A release folder with `tags`, each holding a stand-in binary that prints its version, and
  /// the folder the GitHub API's release list would come from.
  static func releases(_ tags: [String], asset: String) throws -> String {
    let root = try Fixtures.directory([:])
    for tag in tags {
      let dir = root + "/download/" + tag
      try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
      try "#!/bin/sh\necho \"paywall-tui \(tag.dropFirst())\"\n".write(toFile: dir + "/" + asset, atomically: true, encoding: .utf8)
      let sum = try PaywallBinary.spawn(URL(fileURLWithPath: "/bin/sh"), ["-c", "cd '\(dir)' && (sha256sum \(asset) 2>/dev/null || shasum -a 256 \(asset)) > SHA256SUMS"])
      #expect(sum.status == 0)
    }
    try FileManager.default.createDirectory(atPath: root + "/api/repos/o/p", withIntermediateDirectories: true)
    try ("[" + tags.reversed().map { "{\"tag_name\": \"\($0)\"}" }.joined(separator: ",") + "]")
      .write(toFile: root + "/api/repos/o/p/releases", atomically: true, encoding: .utf8)
    return root
  }

  static func install(_ arguments: [String], releases: String) throws -> PaywallBinary.Output {
    try PaywallBinary.spawn(URL(fileURLWithPath: "/bin/bash"), [Fixtures.repositoryRoot.path + "/scripts/install.sh", "--repo", "o/p"] + arguments,
                               environment: ["PAYWALL_TUI_RELEASES": "file://\(releases)/download", "PAYWALL_TUI_API": "file://\(releases)/api"])
  }

  @Test(.enabled(if: asset != nil, "no release binary is made for this machine"))
  func installsTheCheckedBinaryAndRefusesATamperedOne() throws {
    let asset = try #require(Self.asset)
    let releases = try Self.releases(["v0.1.2", "v0.1.10", "v0.2.0"], asset: asset)
    let bin = releases + "/bin"
    let installed = try Self.install(["--version", "v0.1.2", "--dir", bin], releases: releases)
    #expect(installed.status == 0, "\(installed.stderr)")
    #expect(installed.stdout == bin + "/paywall-tui\n")
    #expect(installed.stderr.contains("installed paywall-tui 0.1.2 (release v0.1.2)"), "\(installed.stderr)")

    // vN.M: the newest release under it, by the API's list (newest first).
    let newest = try Self.install(["--version", "v0.1", "--dir", bin], releases: releases)
    #expect(newest.status == 0 && newest.stderr.contains("installed paywall-tui 0.1.10 (release v0.1.10)"), "\(newest.stderr)")

    // A binary that is not the one SHA256SUMS lists: refused, nothing installed.
    try "#!/bin/sh\necho evil\n".write(toFile: releases + "/download/v0.2.0/" + asset, atomically: true, encoding: .utf8)
    let tampered = try Self.install(["--version", "v0.2.0", "--dir", releases + "/other"], releases: releases)
    #expect(tampered.status == 1 && tampered.stderr.contains("but SHA256SUMS says") && tampered.stderr.contains("nothing was installed"), "\(tampered.stderr)")
    #expect(!FileManager.default.fileExists(atPath: releases + "/other"))

    // A version with no release is not built from a tree of another version.
    let missing = try Self.install(["--version", "v9.9.9", "--dir", releases + "/other"], releases: releases)
    #expect(missing.status == 1 && missing.stderr.contains("no release binary of v9.9.9") && missing.stderr.contains("give --version v0.1.0"), "\(missing.stderr)")
    #expect(!FileManager.default.fileExists(atPath: releases + "/other"))
  }
}
