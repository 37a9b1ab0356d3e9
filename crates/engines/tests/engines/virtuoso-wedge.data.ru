PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>
PREFIX c8: <http://www.city.info/>
INSERT DATA {
  c8:mail0 <http://www.order.biz/knows3/> "&#'2zx" .
  c8:mail0 <http://www.order.biz/knows3/> "%{" .
  c8:data1 <http://www.order.biz/knows3/> <http://www.john.biz/peter7/> .
  c8:data1 <http://www.john.biz/peter7/> "9"^^xsd:long .
  c8:label2 c8:data1 c8:mail0 .
  c8:label2 <http://www.label.biz/bob6/> "Ab40" .
  c8:label2 c8:mail0 "8.367762730905188E0"^^xsd:double .
  c8:label2 <http://www.order.biz/knows3/> "false"^^xsd:boolean .
  <http://www.order.biz/knows3/> c8:ages4 c8:data1 .
  <http://www.order.biz/knows3/> c8:mail0 _:b0 .
  <http://www.order.biz/knows3/> c8:data1 "261362515"^^xsd:integer .
  <http://www.order.biz/knows3/> c8:label2 "-2"^^xsd:integer .
  <http://www.order.biz/knows3/> c8:label2 <http://www.label.biz/bob6/> .
  c8:ages4 c8:data1 c8:data1 .
  c8:ages4 c8:data1 "1.91"^^xsd:decimal .
  c8:ages4 <http://www.mail.com/home5/> "71"^^xsd:integer .
  <http://www.mail.com/home5/> c8:label2 "9.441420124414767E0"^^xsd:double .
  <http://www.mail.com/home5/> <http://www.label.biz/bob6/> "true"^^xsd:boolean .
  <http://www.mail.com/home5/> c8:ages4 "-1829031624"^^xsd:integer .
  <http://www.mail.com/home5/> <http://www.john.biz/peter7/> c8:data1 .
  <http://www.mail.com/home5/> c8:mail0 <http://www.john.biz/peter7/> .
  <http://www.label.biz/bob6/> c8:label2 <http://www.label.biz/bob6/> .
  <http://www.label.biz/bob6/> <http://www.mail.com/home5/> c8:mail0 .
  <http://www.label.biz/bob6/> c8:mail0 "e6%%\">|#e1" .
  <http://www.john.biz/peter7/> <http://www.order.biz/knows3/> c8:data1 .
  <http://www.john.biz/peter7/> <http://www.order.biz/knows3/> c8:ages4 .
  <http://www.john.biz/peter7/> <http://www.mail.com/home5/> c8:data1 .
  <http://www.john.biz/peter7/> c8:ages4 _:b1 .
  <http://www.john.biz/peter7/> <http://www.john.biz/peter7/> "green"@en .
  _:b0 <http://crosscheck.invalid/bnode> "0"^^xsd:integer .
  _:b0 c8:mail0 c8:label2 .
  _:b0 c8:data1 <http://www.mail.com/home5/> .
  _:b0 c8:mail0 <http://www.label.biz/bob6/> .
  _:b1 <http://crosscheck.invalid/bnode> "1"^^xsd:integer .
  _:b1 <http://www.mail.com/home5/> <http://www.john.biz/peter7/> .
}