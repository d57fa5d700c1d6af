import Testing

/// The hardening tests against the real `statesync serve`, one nested suite
/// per class of abuse (issue 11). They run one at a time: each measures a
/// bystander's latency or the server's memory, which another abuse test's
/// server working beside it on the same cores would distort.
@Suite(.serialized)
enum AbuseTests {}
