// swift-tools-version:6.0
import PackageDescription

// On Linux ncursesw's headers and libraries are on the default paths, and all pkg-config would add
// are `-D_DEFAULT_SOURCE -D_XOPEN_SOURCE=600`, flags SwiftPM refuses with a warning on every build
// and run ("prohibited flag(s)"); `Sources/CNCurses/shim.h` defines what curses.h needs instead.
// Homebrew's ncurses is keg-only: there pkg-config gives the paths.
#if os(Linux)
let ncursesPkgConfig: String? = nil
#else
let ncursesPkgConfig: String? = "ncursesw"
#endif

// Dependencies point one way, held by `ModuleGraphTests`:
//   paywall-tui -> PaywallCLI -> PaywallScenarios + PaywallTUI (facade) -> PaywallUI + CursesBackend -> TerminalCore
//   everything -> PaywallModel (no terminal); only CursesBackend links ncurses.
let package = Package(
  name: "paywall-tui",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "paywall-tui", targets: ["paywall-tui"]),
    .library(name: "PaywallModel", targets: ["PaywallModel"]),
    .library(name: "PaywallTUI", targets: ["PaywallTUI"]),
  ],
  targets: [
    .systemLibrary(
      name: "CNCurses",
      pkgConfig: ncursesPkgConfig,
      providers: [.apt(["libncurses-dev"]), .brew(["ncurses"])]
    ),
    .target(name: "CTerminalGuard"),
    .target(name: "PaywallModel"),
    .target(name: "TerminalCore", dependencies: ["PaywallModel"]),
    .target(name: "CursesBackend", dependencies: ["TerminalCore", "PaywallModel", "CNCurses", "CTerminalGuard"]),
    .target(name: "PaywallUI", dependencies: ["TerminalCore", "PaywallModel", "CTerminalGuard"]),
    .target(name: "PaywallTUI", dependencies: ["PaywallUI", "CursesBackend", "TerminalCore", "PaywallModel"]),
    // The script language, the player and the scenario runner: `PlayEngine.run(PlayRequest)`,
    // the worker protocol, JUnit. The command line builds requests and prints reports.
    .target(name: "PaywallScenarios", dependencies: ["PaywallUI", "CursesBackend", "TerminalCore", "PaywallModel"]),
    .target(
      name: "PaywallCLI",
      dependencies: ["PaywallScenarios", "PaywallTUI", "PaywallUI", "CursesBackend", "TerminalCore", "PaywallModel", "CTerminalGuard"]
    ),
    .executableTarget(name: "paywall-tui", dependencies: ["PaywallCLI"]),
    .executableTarget(
      name: "custom-controller-example",
      dependencies: ["PaywallModel", "PaywallTUI"],
      path: "Examples/custom-controller"
    ),
    .executableTarget(
      name: "headless-register-example",
      dependencies: ["PaywallModel"],
      path: "Examples/headless-register"
    ),
    .executableTarget(
      name: "paywall-bench",
      dependencies: ["PaywallModel", "PaywallCLI", "PaywallScenarios", "PaywallUI", "TerminalCore"],
      path: "Benchmarks/paywall-bench"
    ),
    // What the test targets share: the fixtures, the one runner of the built binary, the tools a
    // test may need (`Tool`), the process table. Test support, never shipped: no product lists it.
    .target(name: "PaywallTesting", dependencies: ["PaywallCLI", "PaywallScenarios", "PaywallUI", "PaywallModel"], path: "Tests/PaywallTesting"),
    .testTarget(name: "PaywallModelTests", dependencies: ["PaywallModel"], exclude: ["Goldens"]),
    .testTarget(
      name: "PaywallTUITests",
      dependencies: [
        "PaywallTesting", "PaywallCLI", "PaywallScenarios", "PaywallTUI", "PaywallUI", "CursesBackend", "TerminalCore", "PaywallModel", "CNCurses",
        "CTerminalGuard",
      ],
      exclude: ["Goldens"]
    ),
    // The real binary in a real terminal (tmux), on a watched project, across process deaths:
    // the slow suites, apart, so `swift test --skip EndToEndTests` is the quick loop.
    .testTarget(
      name: "EndToEndTests",
      dependencies: ["PaywallTesting", "PaywallCLI", "PaywallScenarios", "PaywallTUI", "PaywallUI", "TerminalCore", "PaywallModel"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
