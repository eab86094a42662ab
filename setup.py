"""Package layout beyond what pyproject.toml can say: the data folders at the top of the project
(ontology/, queries/ with queries/site/, samples/) ship inside the package as kg.ontology, kg.queries,
kg.queries.site, kg.samples."""

from setuptools import find_packages, setup

DATA_PACKAGES = {"kg.ontology": "ontology", "kg.queries": "queries", "kg.samples": "samples"}
# queries/site/ holds only .rq files, yet setuptools warns unless each shipped folder is a listed package.
DATA_SUBPACKAGES = ["kg.queries.site"]

setup(
    packages=find_packages(include=["kg", "kg.*"]) + list(DATA_PACKAGES) + DATA_SUBPACKAGES,
    package_dir=DATA_PACKAGES,
)
