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

/// File descriptors 0, 1 and 2, made sure of before anything opens a file.
package enum StandardStreams {
  /// Opens `/dev/null` on each of fds 0–2 that is closed (`>&-`, `2>&-`, `<&-`). Otherwise the
  /// next file opened (the state directory's lock) would get that number, and the events or
  /// warnings meant for stdout or stderr would be written into it. The first thing `main` does.
  package static func reopenClosed() {
    for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
      // open takes the lowest free number, which is this one: the lower ones are open by now.
      let opened = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY)
      if opened != fd {
        // No /dev/null (a bare chroot): stop rather than let the lock become stdout.
        if opened >= 0 { close(opened) }
        _exit(125)
      }
    }
  }
}
