#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif


/// The optional `NAME.entitlements.json` beside a `NAME.storekit` file, or beside a Play catalog
/// `NAME.json` (its products by Play product id; a group is a subscription there).
struct EntitlementMap {
  var groups: [String: Set<Entitlement>] = [:]
  var products: [String: Set<Entitlement>] = [:]
  /// The map's file, and each of its names with where it is written: one that names nothing in
  /// the catalog would grant nothing, without a word (`unknownNames`).
  var file = ""
  var names: [(table: String, name: String, location: SourceLocation)] = []

  static func path(besides storekitPath: String) -> String {
    let base = [".storekit", ".json"].first(where: storekitPath.hasSuffix).map { String(storekitPath.dropLast($0.count)) } ?? storekitPath
    return base + ".entitlements.json"
  }

  static func load(besides storekitPath: String, diagnostics: DiagnosticCollector) -> EntitlementMap {
    let path = path(besides: storekitPath)
    guard FileManager.default.fileExists(atPath: path) else { return EntitlementMap() }
    let root: JSONNode
    let local: DiagnosticCollector
    do {
      (root, local) = try SourceFile.parse(path: path)
    } catch {
      diagnostics.append(error.diagnostics)
      return EntitlementMap()
    }
    var map = EntitlementMap()
    map.file = path
    if let reader = ObjectReader(root, path: .root, diagnostics: local, what: "an entitlements map") {
      map.groups = table(reader, "groups")
      map.products = table(reader, "products")
      for key in ["groups", "products"] {
        for member in root[key]?.members ?? [] { map.names.append((key, member.key, member.keyLocation)) }
      }
      reader.finish()
    }
    diagnostics.append(local.diagnostics)
    return map
  }

  private static func table(_ reader: ObjectReader, _ key: String) -> [String: Set<Entitlement>] {
    guard let node = reader.value(key) else { return [:] }
    guard let members = node.members else {
      reader.diagnostics.error("\(quoting: key) must be an object of name → [entitlement]", at: node.location, path: .root.appending(key))
      return [:]
    }
    var out: [String: Set<Entitlement>] = [:]
    for member in members {
      guard let list = member.value.elements, list.allSatisfy({ $0.stringValue != nil }) else {
        reader.diagnostics.error("\(quoting: member.key) must map to an array of entitlement names", at: member.value.location,
                                 path: JSONPath.root.appending(key).appending(member.key))
        continue
      }
      out[member.key] = Set(list.compactMap(\.stringValue).map { Entitlement($0) })
    }
    return out
  }

  /// An error for each name of the map that is not one of the catalog's `products` or `groups`
  /// (`what` says what a name is there, e.g. "a product id", for the fix).
  func unknownNames(products known: Set<String>, groups knownGroups: Set<String>, catalog: String, products what: String,
                    groups whatGroups: String) -> [Diagnostic] {
    names.compactMap { entry in
      let (pool, kind) = entry.table == "products" ? (known, what) : (knownGroups, whatGroups)
      guard !pool.contains(entry.name) else { return nil }
      return Diagnostic(file: file, location: entry.location, severity: .error,
                        message: "\(quoting: entry.name) is not in \(catalog), so it would grant nothing: a name under \(quoting: entry.table) is \(kind)\(Suggestions.hint(for: entry.name, in: pool.sorted()))",
                        path: JSONPath.root.appending(entry.table).appending(entry.name))
    }
  }
}
