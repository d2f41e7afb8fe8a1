import Daemon
import Testing

/// The desktop's reduced-motion setting as dynd reads it: GTK's `gtk-enable-animations` in the
/// `[Settings]` group of a `settings.ini`.
@Suite("Reduced motion from the desktop's settings")
struct DesktopMotionTests {
  @Test("gtk-enable-animations in [Settings], in its spellings; elsewhere or absent, nothing")
  func settings() {
    #expect(
      DesktopMotion.animationsEnabled(in: "[Settings]\ngtk-enable-animations=false\n") == false)
    #expect(
      DesktopMotion.animationsEnabled(in: "[Settings]\r\n gtk-enable-animations = 0 \r\n") == false)
    #expect(DesktopMotion.animationsEnabled(in: "[Settings]\ngtk-enable-animations=TRUE") == true)
    #expect(DesktopMotion.animationsEnabled(in: "[Other]\ngtk-enable-animations=false") == nil)
    #expect(DesktopMotion.animationsEnabled(in: "[Settings]\ngtk-theme-name=Adwaita") == nil)
    #expect(DesktopMotion.animationsEnabled(in: "") == nil)
  }
}
