/**
 * "10+ years of Kubernetes" asks for more years than the technology has existed: a small table of
 * first public releases (the year of the first release the project itself announced, as its own
 * site or repository gives it; Wikipedia's infobox "Initial release" agrees for each). Years are
 * compared with today's year (sync/today.ts), so the table stays true as time passes.
 */
export const FIRST_RELEASES: ReadonlyArray<{ name: string; year: number; source: string }> = [
  { name: 'Kubernetes', year: 2014, source: 'https://github.com/kubernetes/kubernetes (first commit and release, June 2014)' },
  { name: 'Docker', year: 2013, source: 'https://www.docker.com/company/ (open-sourced March 2013)' },
  { name: 'TypeScript', year: 2012, source: 'https://devblogs.microsoft.com/typescript/ (0.8, October 2012)' },
  { name: 'Rust', year: 2015, source: 'https://blog.rust-lang.org/2015/05/15/Rust-1.0.html' },
  { name: 'Golang', year: 2009, source: 'https://go.dev/blog/go-open-source (November 2009)' },
  { name: 'Swift', year: 2014, source: 'https://developer.apple.com/swift/ (WWDC, June 2014)' },
  { name: 'Kotlin', year: 2011, source: 'https://blog.jetbrains.com/kotlin/2011/07/hello-world-2/ (July 2011)' },
  { name: 'React', year: 2013, source: 'https://github.com/facebook/react (open-sourced May 2013)' },
  { name: 'Vue', year: 2014, source: 'https://github.com/vuejs/vue (0.8, February 2014)' },
  { name: 'Angular', year: 2016, source: 'https://blog.angular.io/ (Angular 2.0, September 2016; AngularJS is older)' },
  { name: 'Node.js', year: 2009, source: 'https://nodejs.org/en/about (May 2009)' },
  { name: 'Terraform', year: 2014, source: 'https://www.hashicorp.com/blog/terraform-announcement (July 2014)' },
  { name: 'Flutter', year: 2017, source: 'https://github.com/flutter/flutter (first alpha, May 2017)' },
  { name: 'GraphQL', year: 2015, source: 'https://graphql.org/blog/ (open-sourced July 2015)' },
  { name: 'Svelte', year: 2016, source: 'https://github.com/sveltejs/svelte (November 2016)' },
  { name: 'Deno', year: 2018, source: 'https://github.com/denoland/deno (May 2018)' },
  { name: 'Next.js', year: 2016, source: 'https://github.com/vercel/next.js (October 2016)' },
  { name: 'Elixir', year: 2012, source: 'https://elixir-lang.org/ (2012)' },
  { name: 'TensorFlow', year: 2015, source: 'https://github.com/tensorflow/tensorflow (November 2015)' },
  { name: 'PyTorch', year: 2016, source: 'https://github.com/pytorch/pytorch (September 2016)' },
  { name: 'AWS Lambda', year: 2014, source: 'https://aws.amazon.com/blogs/aws/run-code-cloud/ (November 2014)' },
];
