$packages = ['package-number-one', 'package-number-two', 'package-number-three', 'package-number-four', 'package-number-five', 'package-six']
$message = join(['a very long first argument to the function call', 'a very long second argument', 'a third long argument here'], ', and also ')
if $facts['os']['family'] == 'Debian' and $facts['os']['release']['major'] == '11' and $manage_repository and $something_else_that_is_much_longer {
  notice('long condition')
}
$merged = merge($defaults, { 'key_one' => 'value one', 'key_two' => 'value two', 'key_three' => 'value three long', 'key_four' => 'four four' })
$s = "a string that is far too long to fit on one line but has no place at all where a line could break, so it stays as it is, long, longer"
class long::params (String $first_parameter_name = 'first default value', Integer $second_parameter = 42, Boolean $third_parameter_flag = true) {
  $sum = $first_parameter_name_value + $second_parameter_value + $third_parameter_value + $fourth_parameter_value + $fifth_value_is_much_much_longer
}
