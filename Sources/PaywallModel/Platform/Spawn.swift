#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// posix_spawn's settings differ in shape between the C libraries: glibc declares them as structs
// the caller allocates, Darwin as opaque pointers the `_init` calls allocate. Everything that
// spawns a child starts from these, so the difference lives here alone.

#if canImport(Darwin)
/// `posix_spawn_file_actions_t` as the spawn calls take it on this system.
package typealias SpawnFileActions = posix_spawn_file_actions_t?
/// `posix_spawnattr_t` as the spawn calls take it on this system.
package typealias SpawnAttributes = posix_spawnattr_t?
#else
/// `posix_spawn_file_actions_t` as the spawn calls take it on this system.
package typealias SpawnFileActions = posix_spawn_file_actions_t
/// `posix_spawnattr_t` as the spawn calls take it on this system.
package typealias SpawnAttributes = posix_spawnattr_t
#endif

/// What this system needs to spawn children with only the descriptors we hand them.
package enum SpawnPlatform {
  /// Unset file actions, to pass to `posix_spawn_file_actions_init`.
  package static func emptyFileActions() -> SpawnFileActions {
    #if canImport(Darwin)
    nil
    #else
    posix_spawn_file_actions_t()
    #endif
  }

  /// Unset attributes, to pass to `posix_spawnattr_init`.
  package static func emptyAttributes() -> SpawnAttributes {
    #if canImport(Darwin)
    nil
    #else
    posix_spawnattr_t()
    #endif
  }

  /// Makes the child close every descriptor above 2 that the file actions did not place.
  /// glibc 2.34+ has `posix_spawn_file_actions_addclosefrom_np` (its headers hide it from Swift, so
  /// it is looked up at run time; an older glibc keeps only close-on-exec); Darwin has the spawn
  /// flag `POSIX_SPAWN_CLOEXEC_DEFAULT`. Returns the flags to add to `posix_spawnattr_setflags`.
  package static func closeDescriptorsFromThree(_ actions: inout SpawnFileActions) -> Int16 {
    #if canImport(Darwin)
    return Int16(POSIX_SPAWN_CLOEXEC_DEFAULT)
    #else
    typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    // A nil handle is glibc's RTLD_DEFAULT: every object loaded, libc among them.
    guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return 0 }
    let closeFrom = unsafeBitCast(symbol, to: CloseFrom.self)
    _ = closeFrom(&actions, 3)
    return 0
    #endif
  }

  /// This process's environment, as `posix_spawn` takes it: glibc exports `environ`; on Darwin a
  /// program reaches it through `_NSGetEnviron()`.
  package static var environment: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> {
    #if canImport(Darwin)
    _NSGetEnviron().pointee!
    #else
    environ
    #endif
  }

  /// The running program's own path, from the system rather than `argv[0]`: `/proc/self/exe` on
  /// Linux, `_NSGetExecutablePath` on Darwin. Nil when the system does not say.
  package static func currentExecutable() -> String? {
    #if canImport(Darwin)
    var size: UInt32 = 0
    _ = _NSGetExecutablePath(nil, &size)
    var buffer = [CChar](repeating: 0, count: Int(size) + 1)
    guard _NSGetExecutablePath(&buffer, &size) == 0 else { return nil }
    guard let resolved = realpath(buffer, nil) else { return String(cString: buffer) }
    defer { free(resolved) }
    return String(cString: resolved)
    #else
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    #endif
  }
}
