import ArgumentParser

@main
struct Dynd: ParsableCommand {
  func run() throws {}
}
