// Generated from paywalls/*.schema.json by scripts/embed-schemas.py; InitCommandTests checks they
// are the same. Edit the .schema.json files, then run the script.

/// The JSON Schemas of the project files, built into the binary so `init` and `schema` can write
/// them wherever a project lives.
package enum Schemas {
  /// Every schema by name (`app`, `catalog`, `paywall`), written as `NAME.schema.json`.
  package static let all: [(name: String, text: String)] = [
    ("app", appSchema),
    ("catalog", catalogSchema),
    ("paywall", paywallSchema),
  ]
}
