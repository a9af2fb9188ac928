import Foundation
import PaywallModel
import Testing

@Suite("file system")
struct FileSystemTests {
  @Test func makeDirectoriesCreatesEveryMissingParentOnce() throws {
    try withTemporaryDirectory { dir in
      let deep = dir.file("a/b/c")
      #expect(FileSystem.makeDirectories(deep) == nil)
      #expect(FileSystem.isDirectory(deep))
      #expect(FileSystem.makeDirectories(deep) == nil, "already there is fine")
      #expect(FileSystem.makeDirectories(dir.file("a//b/./d/")) == nil)
      #expect(FileSystem.isDirectory(dir.file("a/b/d")))
    }
  }

  @Test func makeDirectoriesSaysWhyNot() throws {
    try withTemporaryDirectory { dir in
      let file = try dir.write("plain", "x")
      #expect(FileSystem.makeDirectories(file) == "Not a directory")
      #expect(FileSystem.makeDirectories(file + "/below") == "Not a directory")
      #expect(!FileSystem.isDirectory(file))
    }
  }

  @Test(.enabled(if: geteuid() != 0, "root writes whatever the permissions say: run the tests as another user to check this"))
  func makeDirectoriesSaysPermissionDenied() throws {
    try withTemporaryDirectory { dir in
      let locked = dir.file("locked")
      #expect(FileSystem.makeDirectories(locked) == nil)
      chmod(locked, 0o500)
      #expect(FileSystem.makeDirectories(locked + "/inner") == "Permission denied")
    }
  }

  @Test func namesListsEveryEntryButDotAndDotDot() throws {
    try withTemporaryDirectory { dir in
      _ = try dir.write(".hidden", "")
      _ = try dir.write("app.json", "{}")
      _ = try dir.write("ünïcode.json", "{}")
      #expect(FileSystem.makeDirectories(dir.file("sub")) == nil)
      #expect(FileSystem.names(in: dir.path).sorted() == [".hidden", "app.json", "sub", "ünïcode.json"])
      #expect(FileSystem.names(in: dir.file("missing")).isEmpty)
    }
  }
}
