# A website can be imported by its numeric id:
terraform import analytics_website.example 12

# or by its domain, in the canonical form the API stores (lower case, no
# scheme, no leading "www.", no path or port):
terraform import analytics_website.example example.com
