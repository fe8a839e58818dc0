case 1 {
  default: { }
  default: { }
}
