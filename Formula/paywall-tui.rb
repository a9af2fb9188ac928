# Homebrew formula, kept in the repository so the repository is its own tap:
#   brew tap paywall-tui/paywall-tui <this repository's clone URL>
#   brew install --HEAD paywall-tui/paywall-tui/paywall-tui
# It builds from the tap's own checkout (the commit `brew update` last fetched), with the release
# settings scripts/release.sh uses on macOS: no static executable (Darwin has none), the system's
# Swift runtime, Homebrew's ncurses.
class PaywallTui < Formula
  # The tap is a clone of this repository: its remote is the project's home.
  TAP_CHECKOUT = File.expand_path("..", __dir__)
  REMOTE = Utils.safe_popen_read("git", "-C", TAP_CHECKOUT, "config", "--get", "remote.origin.url").strip

  desc "Terminal paywall emulator: Superwall paywalls, a simulated App Store, scenarios for CI"
  homepage REMOTE.start_with?("https://") ? REMOTE.delete_suffix(".git") : "https://github.com/topics/paywall"
  head "file://#{TAP_CHECKOUT}", using: :git, branch: "main"

  depends_on "pkgconf" => :build
  depends_on xcode: ["26.0", :build]
  depends_on macos: :sequoia
  depends_on "ncurses"

  def install
    system "swift", "build", "--disable-sandbox", "-c", "release", "-Xswiftc", "-Osize",
           "-Xswiftc", "-Xfrontend", "-Xswiftc", "-disable-concrete-type-metadata-mangled-name-accessors",
           "--product", "paywall-tui"
    bin.install ".build/release/paywall-tui"
    generate_completions_from_executable(bin/"paywall-tui", "completions")
    man1.mkpath
    (man1/"paywall-tui.1").write Utils.safe_popen_read(bin/"paywall-tui", "man")
  end

  test do
    assert_match "paywall-tui", shell_output("#{bin}/paywall-tui --version")
    system bin/"paywall-tui", "init", testpath/"project"
    assert_match "ok", shell_output("#{bin}/paywall-tui validate #{testpath}/project")
    system bin/"paywall-tui", "test", testpath/"project/scenarios"
  end
end
