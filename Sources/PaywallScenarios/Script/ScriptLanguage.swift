/// The play script language, one row per command: the single source of the table in
/// docs/reference/script.md and of `paywall-tui help script`. Cells are Markdown as that page
/// shows them (`code`, `\|` for a bar inside a cell); the help prints them as plain text.
/// `CommandLineTests` checks that the doc's table is this one and that every command the
/// parser (`PlayScript.commands`) knows has a row.
package enum ScriptLanguage {
  package struct Row: Sendable {
    /// How the command is written, e.g. "`advance DURATION`".
    package var syntax: String
    /// What it does.
    package var does: String

    package init(_ syntax: String, _ does: String) {
      self.syntax = syntax
      self.does = does
    }
  }

  package static let rows: [Row] = [
    Row(#"`press KEY…`"#,
        #"keys: `up down left right tab btab enter esc space backspace pgup pgdn home end`, one character (`r`, `q`, `?`, `1`), `hash` (`#`) or `click(X,Y)` (a mouse click at that cell)"#),
    Row(#"`advance DURATION`"#,
        #"moves the simulated clock: `500ms`, `30s`, `5m`, `2h`, `3d`, `1w`, `1M`, `1y` (calendar months and years, as the store's periods: from 2026-01-01, `1M` reaches 2026-02-01; whole numbers only); at most `8035y` (the dates a ledger holds, 1970 to 9999), and the script's advances together may not pass 9999-12-31 (refused at `FILE:LINE:COL`)"#),
    Row(#"`status unknown\|inactive\|active\|active:ENT,…`"#,
        #"sets the subscription status, as an app's controller would; `active` alone: every entitlement of the catalog, as `--status active`"#),
    Row(#"`placement NAME [key=value…]`"#,
        #"registers a placement with those params (`register(placement:params:)`); NAME must be a placement of the project's campaigns (a typo is an error at `FILE:LINE:COL` with a did-you-mean) or a built-in event name; `placement unknown NAME` registers one no campaign has, on purpose (the SDK's `placementNotFound`)"#),
    Row(#"`user key=value…`"#,
        #"sets user attributes (`true`/`false`, numbers and `null` are typed; anything else is text)"#),
    Row(#"`override SLOT=PRODUCT_ID…` / `override none`"#,
        #"overrides slots for the paywalls presented from now on / clears them"#),
    Row(#"`open PAYWALL_ID`"#,
        #"shows a paywall directly"#),
    Row(#"`call purchase PRODUCT_ID` / `call restore`"#,
        #"the app calls `Superwall.shared.purchase(product)` / `restorePurchases()` with no paywall: with a purchase controller (`scripted`, `ask`, `command`, your own) nothing is tracked and no alert shows; with `--controller simulated` (the SDK buying from the store itself) `transaction_*` / `restore_*` are tracked and alerts show over the app, and a campaign on `transaction_abandon` / `transaction_fail` presents its paywall, closing one on screen for it, once a paywall has been presented in the session. `call.purchase` / `call.restorePurchases` (`result`) say what the call returned"#),
    Row(#"`relaunch`"#,
        #"the app goes home (`app_close`) and is killed and launched again: what was on screen goes with no event, then `app_open`, `session_start`, `user_attributes` and `app_launch`, and a campaign on `session_start` or `app_launch` presents its paywall (every run starts with the same launch, plus `app_install` and `first_seen` on a new user's first). A purchase or restore still in flight at the app's own controller (`scripted`, `ask`) ends with the process and sets nothing; one at the simulated store goes through (the account's), and its answer reaches no one"#),
    Row(#"`reinstall`"#,
        #"the app is deleted and installed again on the same account (`--reinstall` within one run): as `relaunch`, then a new user (assignments and install date: `app_install` and `first_seen` again), no pending reminders, notifications never asked; with the app's own controller (`scripted`, `ask`) the status is `unknown` until the controller sets one again (its restore), with the simulated store it comes from the store's purchases, which stay. Not with `--controller command` (its process is the app's)"#),
    Row(#"`notifications allow\|deny\|ask`"#,
        #"the device's notification permission from now on (`--notifications`): allowed or refused as the user sets it in Settings, or `ask`, never asked (as after a reinstall); a free trial's reminders are then scheduled, refused (the SDK's `notificationPermissionsDenied` alert when app.json sets it, iOS) or asked for (the system's prompt; `press enter` allows, `press esc` refuses)"#),
    Row(#"`approve` / `decline`"#,
        #"the oldest pending Ask to Buy purchase (simulated store); an approval that buys nothing (bought meanwhile) fails the run there"#),
    Row(#"`buy PRODUCT_ID`"#,
        #"a purchase outside the paywall (another device), with the store's usual rules; one the store refuses (a declined card, Google Play's `ITEM_ALREADY_OWNED`) bought nothing and fails the run there, naming the store's answer. To test a refusal, buy through the paywall (`press … enter`) and `expect event transaction_fail`"#),
    Row(#"`cancel [PRODUCT_ID]`"#,
        #"auto-renew off: it ends at the end of the current period"#),
    Row(#"`refund [PRODUCT_ID]` / `revoke [PRODUCT_ID]`"#,
        #"refunded / revoked by Apple: entitlements end now. On a Google Play catalog a subscription's refund returns its last order's money and leaves it running and renewing (Play's refund); `revoke` ends it now"#),
    Row(#"`upgrade [PRODUCT_ID]` / `downgrade [PRODUCT_ID]` / `crossgrade [PRODUCT_ID]`"#,
        #"change level in the subscription's group (without a product: the next level up or down)"#),
    Row(#"`billing-issue [PRODUCT_ID] [grace\|no-grace]`"#,
        #"the card fails from now: the next renewal enters billing retry"#),
    Row(#"`resolve-billing [PRODUCT_ID]`"#,
        #"the card works again: in grace or retry the subscription renews now"#),
    Row(#"`price-increase [PRODUCT_ID] [PRICE]`"#,
        #"the next renewal needs consent (default: 20% more)"#),
    Row(#"`accept-price [PRODUCT_ID]` / `decline-price [PRODUCT_ID]`"#,
        #"the subscriber's answer; declined (or no answer) expires at renewal"#),
    Row(#"`family-share [PRODUCT_ID]` / `family-revoke [PRODUCT_ID]`"#,
        #"a family organizer shares a product (`familyShareable`) / stops"#),
    Row(#"`redeem CODE`"#,
        #"the user redeems an offer code in the App Store's sheet (`AppStore.presentOfferCodeRedeemSheet`): the catalog's code offer (`codeOffers`, `{"type": "code"}`) called CODE (any case) grants its period at its price, now for a new or lapsed subscriber, from the next renewal for one subscribed; the ledger records `code` and its id. A code not in the catalog (checked before the script runs), or a user outside its `eligibility` (`new`, `existing`, `expired`), fails at the line (simulated store)"#),
    Row(#"`interrupt` / `resolve-interrupted`"#,
        #"the next purchase is interrupted (it fails) / the buyer completes it, paying then (on Google Play with the test card chosen); one that buys nothing (declined, or bought meanwhile) fails the run there"#),
    Row(#"`test-card always-approves|always-declines|slow-approves|slow-declines`"#,
        #"Google Play catalog: later purchases pay with that license-test card: `always-declines` fails the purchase; a slow card leaves it PENDING (nothing granted, Superwall's `Pending`) for 3 minutes of the store's clock, then buys it (`slow-approves`) or drops it (`slow-declines`)"#),
    Row(#"`pause [PRODUCT_ID] 1w|2w|1M|2M|3M` / `resume [PRODUCT_ID]`"#,
        #"Google Play catalog: the subscriber pauses an auto-renewing subscription from the end of its period for that long (no access while paused; it renews when the pause ends) / resumes it now (it renews now), or drops a pause not yet begun"#),
    Row(#"`replace PRODUCT_ID [MODE]` / `replacement-mode MODE|default`"#,
        #"Google Play catalog: the subscriber moves to another base plan of the subscription by that replacement mode (`WITH_TIME_PRORATION`, `CHARGE_PRORATED_PRICE`, `CHARGE_FULL_PRICE`, `WITHOUT_PRORATION`, `DEFERRED`; without one, the mode in force, else the target plan's `prorationMode`) / the mode the app asks for on later plan changes, its purchases included"#),
    Row(#"`acknowledge on|off` / `acknowledge [PRODUCT_ID]`"#,
        #"Google Play catalog: whether the app acknowledges each purchase as it completes (on, the default, as Superwall's purchaser and RevenueCat do) or forgets (off: Play refunds it and revokes its entitlement 3 days later, 3 minutes on a `renewal=` time rate) / the app acknowledges the newest unacknowledged purchase now"#),
    Row(#"`fail purchase\|restore ERROR`"#,
        #"the next purchase or restore fails with a StoreKit error: `networkError`, `userCancelled` (comes back cancelled), `systemError`, `notAvailableInStorefront`, `notEntitled`, `productUnavailable`, `purchaseNotAllowed`, `ineligibleForOffer`, `invalidOfferIdentifier`, `invalidOfferPrice`, `invalidOfferSignature`, `missingOfferParameters`, `unknown`, and StoreKit 1's cancels `paymentCancelled`, `overlayCancelled`, `overlayTimeout` (the purchase fails with them, which the SDK reads as a cancel) (any controller); on Android a purchase also fails with Google Play's billing response: `SERVICE_TIMEOUT`, `FEATURE_NOT_SUPPORTED`, `SERVICE_DISCONNECTED`, `USER_CANCELED` (comes back cancelled), `SERVICE_UNAVAILABLE`, `BILLING_UNAVAILABLE`, `ITEM_UNAVAILABLE`, `DEVELOPER_ERROR`, `ERROR`, `ITEM_ALREADY_OWNED`, `ITEM_NOT_OWNED`, `NETWORK_ERROR`, as Superwall's own purchasing meets it (the simulated store only): a failure whose message names the response (our words, not the SDK's English), the code alone, `6`, before Superwall-Android 2.6.6"#),
    Row(#"`latency DURATION`"#,
        #"every purchase and restore waits that long on the clock (`0s`: off)"#),
    Row(#"`drop`"#,
        #"the next answer never reaches the app: it gives up after 10 s (the store may have charged)"#),
    Row(#"`resize WIDTHxHEIGHT`"#,
        #"the terminal is resized: `expect screen` and `--screen` draw at that size from now on (`run --record` writes one at the start and at each resize)"#),
    Row(#"`answer purchase\|restore RESULT DURATION [MESSAGE…]`"#,
        #"the next purchase (`purchased`, `cancelled`, `pending`, `restored` (SDK 3 only), `failed`) or restore (`restored`, `failed`) returns RESULT after DURATION on the clock without reaching the controller, a failure with MESSAGE, or `failed:ERROR` with a StoreKit error as `fail` names them (`failed:userCancelled` is a cancel); answers queue (`run --record` of `--controller command` writes them)"#),
    Row(#"`expect event NAME [key=value…]`"#,
        #"NAME (with those parameters) was emitted after the previous matched `expect event`"#),
    Row(#"`expect no event NAME [key=value…]`"#,
        #"no such event since the previous matched `expect event`"#),
    Row(#"`expect screen TEXT` / `expect no screen TEXT`"#,
        #"TEXT appears / does not appear on one row of the screen; TEXT is the rest of the line, and double quotes around all of it are dropped (`expect screen "Go Premium"` looks for `Go Premium`)"#),
    Row(#"`expect status STATUS`"#,
        #"the status is STATUS; `active` alone matches any active status"#),
    Row(#"`expect subscription PRODUCT_ID STATE`"#,
        #"the store's subscription to it is `subscribed` (any), `trial`, `intro`, `paid` (regular price), `inGracePeriod`, `inBillingRetryPeriod` (Google Play: also `onHold`, its account hold, and `paused`), `expired` or `revoked`"#),
    Row(#"`expect subscription PRODUCT_ID offer TYPE [OFFER_ID]`"#,
        #"its current period runs on that offer: `introductory`, `promotional`, `winBack`, `code` (with the offer's id, if given) or `none` (the regular price)"#),
    Row(#"`screenshot FILE`"#,
        #"writes the screen as it is now (`--size`) to FILE: an SVG, an HTML page or plain text by its extension (`.svg`, `.html`, `.txt`); a relative FILE is in the script's directory (the current one for `--script -` and `--keys`); `play --screenshot-every DIR` writes one after every step (`003-press-enter.svg`)"#),
    Row(#"`survey answer OPTION` / `survey other TEXT…` / `survey close`"#,
        #"answers the survey a closing paywall shows (its `surveys`): an option by id, or by its title in double quotes; "Other" with TEXT (not blank); "Close" (only when `includeCloseOption`). Fails at the line when no survey is showing"#),
    Row(#"`call getPresentationResult PLACEMENT [key=value…]`"#,
        #"the app calls `getPresentationResult(forPlacement:params:)` on `Superwall.shared`: the placement is evaluated as a register would be and nothing presents (a paywall on screen does not change the answer); `call.getPresentationResult` has the `result` (`paywall`, `holdout`, `noAudienceMatch`, `placementNotFound`, `paywallNotAvailable`; SDK 3's names under `--sdk 3`) and, for a paywall or holdout, the experiment. A holdout or no match tracks `trigger_fire` and a holdout uses up an occurrence; the assignment is saved. PLACEMENT is checked as `placement`'s (`call getPresentationResult unknown NAME` for one no campaign has)"#),
    Row(#"`background [DURATION]` / `foreground`"#,
        #"the app goes to the background (`app_close`) / comes back (`app_open`, then `session_start` and `user_attributes`, with the campaign on `session_start`, when it was away for more than the project's `appSessionTimeoutMs`, default 1 hour; strictly more, as the SDK); `background 2h` goes, moves the clock 2 hours and comes back. A paywall on screen stays. While in the background `press`, `placement`, `open` and `call` fail at the line; the store, `status`, `user`, `advance` and `expect` go on"#),
    Row(#"`deeplink URL`"#,
        #"the app calls `Superwall.handleDeepLink(url)` (from the background, it comes to the front first): `deepLink_open` with the URL's parts, `call.handleDeepLink` (`handled`, what it returned); once the subscription status is known (with none yet it waits for one, up to 5 s, and on the timeout nothing closes), the paywall on screen closes (`declined`, `systemLogic`: no `paywall_decline`, a non-gated register's feature runs) and a campaign on `deepLink_open` presents with no handler (its audiences read the URL's parts and query items as `params`). SDK 4.2 and later: a web-checkout redeem link is not tracked, and a `*.superwall.app/app-link/…` link is tracked as `SCHEME://…`. Android: a link that is not Superwall's (a redeem or debugger link) answers `false` up to 2.5, and from 2.6 a failure (`result=failure`, `error`), which 2.6.0–2.6.1 do not track, so nothing closes or presents"#),
  ]

  /// The table as docs/reference/script.md writes it, header included.
  package static var markdown: String {
    (["| command | does |", "| --- | --- |"] + rows.map { "| \($0.syntax) | \($0.does) |" }).joined(separator: "\n")
  }

  /// `paywall-tui help script`: every command on one line, then how a script is run.
  package static var help: String {
    let commands = rows.map { (plain($0.syntax), plain($0.does)) }
    let width = min(36, commands.map(\.0.count).max() ?? 0)
    var lines = [
      "OVERVIEW: The play script language: one command a line; '#' starts a comment at the start of a line or after a space, outside double quotes.",
      "",
      "USAGE: paywall-tui play <path> --script FILE   (or --script - for standard input; --keys \"…\" is one 'press')",
      "",
      "COMMANDS:",
    ]
    for (syntax, does) in commands {
      let padding = syntax.count < width ? String(repeating: " ", count: width - syntax.count) : ""
      lines.append("  \(syntax)\(padding)  \(does)")
    }
    lines += [
      "",
      "A failed 'expect' (or a store command that finds nothing to act on) stops the run with exit code 1 and says",
      "which line failed and what was there instead; a malformed script is a usage error (exit 2) with FILE:LINE:COL",
      "for every bad line.",
      "",
      "EXAMPLES:",
      "  paywall-tui play paywalls --script scenarios/purchase-trial.play",
      "  printf 'press enter\\nexpect status active\\n' | paywall-tui play paywalls --controller scripted --script -",
    ]
    return lines.joined(separator: "\n")
  }

  /// A Markdown cell as plain text: no backticks, `\|` as `|`.
  package static func plain(_ cell: String) -> String {
    var out = ""
    var escaped = false
    for character in cell {
      if escaped && character != "|" { out.append("\\") }
      escaped = character == "\\"
      if character != "`" && !escaped { out.append(character) }
    }
    if escaped { out.append("\\") }
    return out
  }
}
