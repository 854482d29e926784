package weft.peer;

/** A bad argument: printed as "weft-peer-java: <argument>: <what is wrong>", exit status 2. */
final class ArgError extends Exception {
  private static final long serialVersionUID = 1L;
  final String argument;
  final String what;

  ArgError(String argument, String what) {
    super(argument + ": " + what);
    this.argument = argument;
    this.what = what;
  }
}
