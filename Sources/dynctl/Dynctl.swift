import ArgumentParser

@main
struct Dynctl: ParsableCommand {
  func run() throws {}
}
