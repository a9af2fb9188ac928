import Foundation
import PaywallModel

/// A Superwall config as the SDK downloads it, about `megabytes` MB: `placements` triggers of three
/// rules each (a CEL filter with an occurrence limit, an A/B split with a holdout, everyone), and
/// `paywalls` paywall responses whose `paywalljs_event` carries 30 substitutions of editor HTML.
/// Paywall `n` is `idPrefix` and `n`.
func generateSuperwallConfig(placements: Int, paywalls: Int, products: [String], substitutions: Int = 30,
                             idPrefix: String = "paywall-") -> String {
  func base64Substitutions(_ n: Int) -> String {
    var subs: [String] = []
    for i in 0..<substitutions {
      let value = i == 0 ? "Unlock <b>Pro</b> \(n)<br>today" : "<p class=\\\"paragraph-text\\\">Line \(i) for paywall \(n): {{ primary.price }} per {{ primary.period }}, then more text &amp; more<br>and a second line with enough words to look like the editor's copy</p>"
      subs.append("{\"key\":\"\(i == 0 ? "Title" : "bullet-\(i)")\",\"value\":\"\(value)\",\"freeTrialValue\":\"Try {{ primary.trialPeriodDays }} days free\"}")
    }
    let json = "[{\"event_name\":\"template_substitutions\",\"substitutions\":[\(subs.joined(separator: ","))]}]"
    return Data(json.utf8).base64EncodedString()
  }
  var paywallJSON: [String] = []
  for n in 0..<paywalls {
    let primary = products[n % products.count]
    let secondary = products[(n + 1) % products.count]
    paywallJSON.append("""
      {"id":"\(n)","identifier":"\(idPrefix)\(n)","name":"Paywall \(n)","cache_key":"k\(n)","build_id":"b","url":"https://example.com/\(n)",
       "url_config":{"endpoints":[{"url":"https://example.com/\(n)","timeout_ms":1000,"percentage":100}],"max_attempts":10},
       "paywalljs_event":"\(base64Substitutions(n))","presentation_style_v3":{"type":"FULLSCREEN"},"presentation_delay":0,
       "background_color_hex":"#000000","feature_gating":"\(n % 2 == 0 ? "GATED" : "NON_GATED")",
       "products_v2":[{"reference_name":"primary","store_product":{"store":"APP_STORE","product_identifier":"\(primary)"},"entitlements":[{"identifier":"pro","type":"SERVICE_LEVEL"}]},
                      {"reference_name":"secondary","store_product":{"store":"APP_STORE","product_identifier":"\(secondary)"},"entitlements":[{"identifier":"pro","type":"SERVICE_LEVEL"}]}]}
      """)
  }
  var triggers: [String] = []
  for p in 0..<placements {
    let a = p % paywalls, b = (p + 7) % paywalls
    triggers.append("""
      {"event_name":"placement_\(p)","rules":[
        {"experiment_id":"\(p)01","experiment_group_id":"g\(p)","expression_cel":"user.plan == \\"pro\\" && params.source in [\\"onboarding\\", \\"settings\\"]","preload":{"behavior":"IF_TRUE"},
         "occurrence":{"key":"o\(p)","max_count":3,"interval":{"type":"INFINITY"}},
         "variants":[{"variant_type":"TREATMENT","variant_id":"\(p)011","percentage":100,"paywall_identifier":"\(idPrefix)\(a)"}]},
        {"experiment_id":"\(p)02","experiment_group_id":"g\(p)","expression_cel":"user.age > 12","preload":{"behavior":"ALWAYS"},
         "variants":[{"variant_type":"HOLDOUT","variant_id":"\(p)020","percentage":10},
                     {"variant_type":"TREATMENT","variant_id":"\(p)021","percentage":45,"paywall_identifier":"\(idPrefix)\(a)"},
                     {"variant_type":"TREATMENT","variant_id":"\(p)022","percentage":45,"paywall_identifier":"\(idPrefix)\(b)"}]},
        {"experiment_id":"\(p)03","experiment_group_id":"g\(p)","preload":{"behavior":"NEVER"},
         "variants":[{"variant_type":"TREATMENT","variant_id":"\(p)031","percentage":100,"paywall_identifier":"\(idPrefix)\(b)"}]}]}
      """)
  }
  return """
    {"build_id":"bench","log_level":10,"app_session_timeout_ms":3600000,"toggles":[],"disable_preload":{"all":false,"triggers":[]},
     "localization":{"locales":[]},"trigger_options":[\(triggers.joined(separator: ","))],"paywall_responses":[\(paywallJSON.joined(separator: ","))]}
    """
}

/// 7. A 5 MB Superwall config imported (parse, decode, map, build the project through our readers)
/// with `ProjectLoader`, as `run config.json --catalog …` does; the peer is `JSONSerialization`
/// parsing the same bytes.
func benchmarkSuperwallImport(directory: URL, runs: Int) throws {
  let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  let catalogPath = root.appendingPathComponent("paywalls/catalog.json").path
  let catalog = try Catalog.load(path: catalogPath)
  let config = generateSuperwallConfig(placements: 400, paywalls: 400, products: catalog.productIDs)
  let configURL = directory.appendingPathComponent("superwall-config.json")
  try config.write(to: configURL, atomically: true, encoding: .utf8)
  var ours: [Double] = []
  var peer: [Double] = []
  var parseOnly: [Double] = []
  var advice: [Double] = []
  var shape = ""
  for _ in 0..<max(runs, 1) {
    var project: Project?
    ours.append(seconds {
      let result = ProjectLoader.load(path: configURL.path, catalogPath: catalogPath)
      precondition(result.errors.isEmpty, "\(result.errors.prefix(3))")
      shape = "\(result.project!.placements.count) placements, \(result.project!.paywalls.count) paywalls"
      project = result.project
    })
    advice.append(seconds {
      precondition(!PaywallReader.validationAdvice(for: project!).isEmpty, "the config's paywalls have trial-copy advice")
    })
    parseOnly.append(try seconds {
      _ = try SourceFile.parse(path: configURL.path)
    })
    peer.append(try seconds {
      _ = try JSONSerialization.jsonObject(with: Data(contentsOf: configURL))
    })
  }
  print("import a Superwall config, \(shape), \(config.utf8.count / 1024) KiB (median of \(max(runs, 1))):")
  print(String(format: "  paywall-tui ProjectLoader   %7.1f ms   (target <= 2.0× JSONSerialization)", median(ours) * 1000))
  print(String(format: "  of which parsing the file  %7.1f ms   (our JSONParser: positions, sanitised strings)", median(parseOnly) * 1000))
  print(String(format: "  peer: JSONSerialization     %7.1f ms   (parse only: no positions, no validation)", median(peer) * 1000))
  // `validate`'s advice on the same project: it read the whole config again for each paywall
  // with a warning (4 s here); it must stay a small part of the load.
  print(String(format: "  validate's advice on it       %7.1f ms   (bound: half the load)", median(advice) * 1000))
  if median(advice) > median(ours) / 2 {
    print("FAIL: validate's advice costs more than half the load: it reads the config again per paywall")
    exit(1)
  }
  figure("superwall-import", "import a 5 MB Superwall config (400 placements, 400 paywalls)", ours: median(ours) * 1000,
         peer: median(peer) * 1000, unit: "ms", peerName: "Foundation JSONSerialization, parse only", target: "<= 2.0× JSONSerialization (goal 1.5×)", bar: .ratioAtMost(2.0))
}

/// 7b. Linearity: configs of N and 4N placements and paywalls (small paywalls, so the size is in
/// their count), each loaded with `ProjectLoader`; the time ratio must stay near 4. A search of an
/// array per paywall or per variant made it quadratic (15,000 paywalls 2.9 s, 60,000 31 s); the
/// run fails when the ratio passes `bound`. `idPrefix` of 80 letters: every paywall id gives one
/// file name (the first 80 characters), each taking the next `-N` suffix.
func benchmarkSuperwallLinearity(directory: URL, n: Int, runs: Int, bound: Double = 6, idPrefix: String = "paywall-") throws {
  let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  let catalogPath = root.appendingPathComponent("paywalls/catalog.json").path
  let catalog = try Catalog.load(path: catalogPath)
  var times: [Double] = []
  for count in [n, 4 * n] {
    let url = directory.appendingPathComponent("superwall-linear-\(count).json")
    try generateSuperwallConfig(placements: count, paywalls: count, products: catalog.productIDs, substitutions: 1, idPrefix: idPrefix)
      .write(to: url, atomically: true, encoding: .utf8)
    var samples: [Double] = []
    for _ in 0..<max(runs, 1) {
      // CPU time, not wall time: on a busy machine (CI, shared cores) the ratio stays honest.
      let start = processCPUSeconds()
      let result = ProjectLoader.load(path: url.path, catalogPath: catalogPath)
      precondition(result.errors.isEmpty, "\(result.errors.prefix(3))")
      samples.append(processCPUSeconds() - start)
    }
    times.append(samples.min()!)
    try? FileManager.default.removeItem(at: url)
  }
  let ratio = times[1] / times[0]
  let named = idPrefix.count >= 80 ? ", every id giving one file name" : ""
  print("import a Superwall config at N and 4N placements and paywalls\(named) (CPU time, best of \(max(runs, 1))):")
  print(String(format: "  N = %6d                   %7.1f ms", n, times[0] * 1000))
  print(String(format: "  4N = %6d                  %7.1f ms   ratio %.2f (linear: 4; bound %.0f)", 4 * n, times[1] * 1000, ratio, bound))
  if ratio > bound {
    print("FAIL: the import is not linear (\(String(format: "%.2f", ratio)) > \(bound))")
    exit(1)
  }
}

/// The CPU time this process has used, in seconds.
func processCPUSeconds() -> Double {
  var now = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
  return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
