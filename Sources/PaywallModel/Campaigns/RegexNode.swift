#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif

indirect enum RegexNode: Sendable {
  case empty
  case scalars([Unicode.Scalar])
  case set(ScalarSet)
  case any(newline: Bool)
  case assert(RegexAssertion)
  case concat([RegexNode])
  case alternate([RegexNode])
  case repetition(RegexNode, min: Int, max: Int?)

  /// Instructions it compiles to, saturating well below overflow.
  var size: Int {
    let cap = Int.max / 4
    switch self {
    case .empty: return 0
    case .scalars, .any, .assert: return 1
    case .set(let set): return max(1, set.ranges.count)
    case .concat(let items): return items.reduce(0) { min(cap, $0 + $1.size) }
    case .alternate(let items): return min(cap, items.reduce(0) { min(cap, $0 + $1.size) } + 2 * (items.count - 1))
    case .repetition(let node, let low, let high):
      let one = node.size + 2
      let copies = high ?? (low + 1)
      let (product, overflow) = one.multipliedReportingOverflow(by: max(copies, 1))
      return overflow ? cap : min(cap, product)
    }
  }

  func emit(into compiler: inout RegexCompiler) {
    switch self {
    case .empty: break
    case .scalars(let s):
      if s.count == 1 {
        compiler.program.append(.scalar(s[0].value))
      } else {
        compiler.program.append(.scalars(compiler.scalarTables.count))
        compiler.scalarTables.append(s)
      }
    case .set(let set):
      compiler.program.append(.set(compiler.sets.count))
      compiler.sets.append(set)
    case .any(let newline): compiler.program.append(.any(newline: newline))
    case .assert(let a): compiler.program.append(.assert(a))
    case .concat(let items): for item in items { item.emit(into: &compiler) }
    case .alternate(let items):
      var jumps: [Int] = []
      for (i, item) in items.enumerated() {
        if i < items.count - 1 {
          let split = compiler.program.count
          compiler.program.append(.split(0, 0))
          item.emit(into: &compiler)
          jumps.append(compiler.program.count)
          compiler.program.append(.jump(0))
          compiler.program[split] = .split(split + 1, compiler.program.count)
        } else {
          item.emit(into: &compiler)
        }
      }
      for jump in jumps { compiler.program[jump] = .jump(compiler.program.count) }
    case .repetition(let node, let low, let high):
      for _ in 0..<low { node.emit(into: &compiler) }
      if let high {
        // Each optional copy may be skipped to the end.
        var splits: [Int] = []
        for _ in low..<high {
          splits.append(compiler.program.count)
          compiler.program.append(.split(0, 0))
          node.emit(into: &compiler)
        }
        for split in splits { compiler.program[split] = .split(split + 1, compiler.program.count) }
      } else {
        let split = compiler.program.count
        compiler.program.append(.split(0, 0))
        node.emit(into: &compiler)
        compiler.program.append(.jump(split))
        compiler.program[split] = .split(split + 1, compiler.program.count)
      }
    }
  }
}
