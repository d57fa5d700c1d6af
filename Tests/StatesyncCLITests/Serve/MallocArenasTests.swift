import Testing
@testable import statesync

@Suite struct MallocArenasTests {
    @Test func servePutsTwoArenasPerCoreUnlessTheEnvironmentSaysOtherwise() {
        #expect(MallocArenas.cap(environment: [:], cores: 2) == 4)
        #expect(MallocArenas.cap(environment: [:], cores: 16) == 32)
        #expect(MallocArenas.cap(environment: [:], cores: 0) == 2)
        #expect(MallocArenas.cap(environment: ["MALLOC_ARENA_MAX": "1"], cores: 2) == nil)
    }
}
