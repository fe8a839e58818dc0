exec { 'x':
  unless => 'test -f /x',
  before => Exec['y'],
  if     => 1,
  class  => 2,
}
