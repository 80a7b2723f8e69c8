import LaunchContract

/// How the device powered up at its last `open()`: cold when it was closed longer ago than the
/// profile's warm window, never, or in another boot; warm when it was closed (by any process)
/// within the warm window, this boot.
public typealias PowerUp = DevicePowerUp
