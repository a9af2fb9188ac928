import Foundation
import Testing

@testable import PaywallModel

/// The project's entitlements and placements, each computed in one place.
@Suite struct ProjectNamesTests {
  @Test func theCatalogsEntitlementsAreEveryProductsOnce() throws {
    let project = try #require(ProjectLoader.load(path: Fixture.paywallsDirectory).project)
    let expected = Set(project.catalog.products.flatMap(\.entitlements))
    #expect(project.catalog.entitlements == expected && !expected.isEmpty)
    #expect(project.catalog.entitlementIDs == expected.map(\.id).sorted())
  }

  @Test func campaignPlacementsListEachOnceInFileOrderImplicitOnesToo() throws {
    let project = try #require(ProjectLoader.load(path: Fixture.paywallsDirectory).project)
    let all = project.campaigns.map(\.placement)
    #expect(project.campaignPlacements == all.enumerated().filter { all.firstIndex(of: $0.element) == $0.offset }.map(\.element))
    #expect(Set(project.placements).isSubset(of: Set(project.campaignPlacements)))
  }
}
