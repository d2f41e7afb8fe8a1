/// How device units become points. A point is 1/`pointsPerInch` inch: 160 by default, Android's
/// baseline density (`DisplayMetrics.DENSITY_DEFAULT`, where a dp is a pixel), so that the
/// points of a recording are Android's dp and UIKit's points at their baseline scale.
public struct StrokeUnits: Equatable, Sendable {
  public var pointsPerInch: Double
  /// The screen the touch axes map onto: for `getevent`, always; for `libinput record`, for an
  /// axis that gives no resolution.
  public var screen: MappedScreen?
  /// For `getevent`: the touch axes' ranges, when not in the file itself (the text of
  /// `getevent -lp`).
  public var deviceInfo: String?

  public init(pointsPerInch: Double = 160, screen: MappedScreen? = nil, deviceInfo: String? = nil) {
    self.pointsPerInch = pointsPerInch
    self.screen = screen
    self.deviceInfo = deviceInfo
  }
}

/// The screen a touch device's axes are mapped onto: its size in pixels and its density in dots
/// per inch. An Android phone's: `adb shell wm size` and `adb shell wm density`. A touchscreen
/// under libinput that gives no resolution: the output the compositor maps it onto.
public struct MappedScreen: Equatable, Sendable {
  public var width: Double
  public var height: Double
  public var density: Double

  public init(width: Double, height: Double, density: Double) {
    self.width = width
    self.height = height
    self.density = density
  }
}

/// One absolute axis of an evdev device (`struct input_absinfo`): its range and resolution.
public struct AxisRange: Equatable, Sendable {
  public var minimum: Int
  public var maximum: Int
  /// Units per millimetre (for ABS_X, ABS_Y and ABS_MT_POSITION_*, linux/input.h); 0 when the
  /// device does not say.
  public var resolution: Int
  /// The line that gave it, for errors.
  public var line: Int

  /// Millimetres from the axis's minimum, times `pointsPerInch` / 25.4.
  func points(_ value: Int, pointsPerInch: Double) -> Double {
    Double(value - minimum) / Double(resolution) / 25.4 * pointsPerInch
  }

  /// The axis mapped onto a screen `pixels` wide along it, as Android maps a touchscreen
  /// (TouchInputMapper: the scale is pixels / (max − min + 1), from the minimum) and as a
  /// compositor maps one onto its output; then pixels to points at `density` dpi (a dp is
  /// density / 160 pixels at 160 points per inch).
  func points(_ value: Int, pixels: Double, density: Double, pointsPerInch: Double) -> Double {
    Double(value - minimum) * pixels / Double(maximum - minimum + 1) * pointsPerInch / density
  }
}
