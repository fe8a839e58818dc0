type MyMod::Point = Object {
  attributes => {
    x => Integer,
    y => Integer,
  },
}
