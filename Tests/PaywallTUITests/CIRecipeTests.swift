import Foundation
import PaywallTesting
import Testing

/// The README's CI job is complete and works: it is read out of the README (the YAML block after
/// the `ci-job` marker), parsed by python's yaml as GitHub would parse it, checked to have every
/// part a CI job needs, and its `run:` steps are run here in order, for each shard, against a fresh
/// `init` project, with the built binary where the job installs paywall-tui.
@Suite("the README's CI job")
struct CIRecipeTests {
  static let marker = "<!-- ci-job:"

  /// The YAML of the job block, from README.md or a doc under docs/.
  static func jobYAML() throws -> String {
    let root = Fixtures.repositoryRoot.path
    let docs = (try? FileManager.default.contentsOfDirectory(atPath: root + "/docs").filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }) ?? []
    for file in ["README.md"] + docs.sorted() {
      guard let text = try? String(contentsOfFile: root + "/" + file, encoding: .utf8), let marker = text.range(of: marker) else { continue }
      let after = text[marker.upperBound...]
      guard let open = after.range(of: "```yaml\n"), let close = after[open.upperBound...].range(of: "\n```") else {
        throw FixtureError("\(file): no ```yaml block after the ci-job marker")
      }
      return String(after[open.upperBound..<close.lowerBound]) + "\n"
    }
    throw FixtureError("no ci-job marker in README.md or docs/*.md")
  }

  /// The workflow as python's yaml reads it (GitHub's parser is YAML 1.2; the job uses nothing
  /// where the two differ), as JSON.
  static func parsed(_ yaml: String, in directory: String) throws -> [String: Any] {
    try yaml.write(toFile: directory + "/job.yml", atomically: true, encoding: .utf8)
    let result = try PaywallBinary.spawn(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", """
      import json, sys, yaml
      doc = yaml.safe_load(open(sys.argv[1]))
      # YAML 1.1 reads the key `on` as True: GitHub reads it as "on".
      if True in doc: doc["on"] = doc.pop(True)
      print(json.dumps(doc))
      """, directory + "/job.yml"])
    guard result.status == 0, let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] else {
      throw FixtureError("the README's CI job does not parse as YAML: \(result.stderr)")
    }
    return object
  }

  static var hasYAML: Bool {
    (try? PaywallBinary.spawn(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", "import yaml"]).status) == 0
  }

  // Needs python3's yaml (pip install pyyaml, or apt-get install python3-yaml); fails under CI=true.
  @Test(.enabled(if: hasYAML || ProcessInfo.processInfo.environment["CI"] == "true", "python3 -c 'import yaml' fails: pip install pyyaml"))
  func theJobRunsHereStepByStep() throws {
    let work = try Fixtures.directory([:])
    let workflow = try Self.parsed(try Self.jobYAML(), in: work)
    #expect(workflow["on"] != nil && workflow["name"] != nil, "a workflow file: name and on")
    let jobs = try #require(workflow["jobs"] as? [String: Any])
    #expect(jobs.count == 1)
    let job = try #require(jobs.values.first as? [String: Any])
    #expect(job["runs-on"] != nil)
    let steps = try #require(job["steps"] as? [[String: Any]])
    let uses = steps.compactMap { $0["uses"] as? String }
    #expect(uses.contains { $0.hasPrefix("actions/checkout@") })
    // Installed by this repository's action, its build cached.
    let install = try #require(steps.first { ($0["uses"] as? String).map { $0.contains("/paywall-tui@") || $0 == "./" } ?? false },
                               "a step installs paywall-tui with the action")
    let cache = try #require(steps.first { ($0["uses"] as? String)?.hasPrefix("actions/cache@") == true }, "a cache step")
    let cachePath = (cache["with"] as? [String: Any])?["path"] as? String
    #expect(cachePath != nil && cachePath == (install["with"] as? [String: Any])?["build-cache"] as? String,
            "the cache holds the action's build-cache")
    #expect(steps.firstIndex { $0["uses"] as? String == cache["uses"] as? String }! < steps.firstIndex { $0["uses"] as? String == install["uses"] as? String }!,
            "the cache is restored before the install")
    // Shards from the matrix, the same count as --shard's N.
    let shards = try #require((((job["strategy"] as? [String: Any])?["matrix"] as? [String: Any])?["shard"] as? [Int]), "a shard matrix")
    #expect(shards == Array(1...shards.count))
    let runs = steps.compactMap { $0["run"] as? String }
    #expect(runs.contains { $0.contains("paywall-tui validate") && $0.contains("--format github") })
    #expect(runs.contains { $0.contains("paywall-tui test") && $0.contains("--junit") && $0.contains("--shard ${{ matrix.shard }}/\(shards.count)") })
    let report = try #require(steps.first { ($0["with"] as? [String: Any])?["report_paths"] != nil }, "a step reports the JUnit files")
    #expect(report["if"] as? String == "${{ !cancelled() }}", "the report is made when scenarios fail too")
    let reportPaths = try #require((report["with"] as? [String: Any])?["report_paths"] as? String)

    // The user's repository: the project `init` makes, with scenarios enough for every shard.
    let repository = work + "/repository"
    let project = repository + "/" + (((job["defaults"] as? [String: Any])?["run"] as? [String: Any])?["working-directory"] as? String ?? ".")
    let made = try PaywallBinary.run(["init", project])
    #expect(made.status == 0, "\(made.stderr)")
    let scenario = try String(contentsOfFile: project + "/scenarios/buy-annual.play", encoding: .utf8)
    for name in ["buy-again", "buy-once-more"] {
      try scenario.write(toFile: project + "/scenarios/\(name).play", atomically: true, encoding: .utf8)
    }
    // The install step, here: the built binary on PATH.
    let bin = work + "/bin"
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: bin + "/paywall-tui", withDestinationPath: PaywallBinary.binary.path)
    let path = bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")

    var reports: [String] = []
    for shard in shards {
      for (index, step) in steps.enumerated() {
        guard var script = step["run"] as? String else { continue }
        script = script.replacingOccurrences(of: "${{ matrix.shard }}", with: String(shard))
        #expect(!script.contains("${{"), "step \(index) uses an expression this test does not know: \(script)")
        // As GitHub runs a bash step: bash --noprofile --norc -eo pipefail.
        let directory = (step["working-directory"] as? String).map { repository + "/" + $0 } ?? project
        let result = try PaywallBinary.spawn(URL(fileURLWithPath: "/usr/bin/env"),
                                                ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", "cd '\(directory)' && " + script],
                                                environment: ["PATH": path, "GITHUB_ACTIONS": "true"])
        #expect(result.status == 0, "shard \(shard), step \(index) (\(step["name"] ?? script)) failed:\n\(result.stdout)\(result.stderr)")
      }
      reports.append(repository + "/" + reportPaths.replacingOccurrences(of: "*", with: String(shard)))
    }
    // Each JUnit file is XML (python's parser), and the shards ran every scenario exactly once.
    let read = try PaywallBinary.spawn(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", """
      import sys, xml.etree.ElementTree as ET
      for path in sys.argv[1:]:
          root = ET.parse(path).getroot()
          assert root.tag == "testsuites", f"{path}: the root is {root.tag}"
          for case in root.iter("testcase"):
              assert case.find("failure") is None, f"{path}: {case.get('name')} failed"
              print(case.get("name"))
      """] + reports)
    #expect(read.status == 0, "\(read.stderr)")
    let ran = read.stdout.split(separator: "\n").map(String.init)
    #expect(ran.count == 3 && Set(ran).count == 3, "every scenario once over the shards: \(ran)")
  }
}
